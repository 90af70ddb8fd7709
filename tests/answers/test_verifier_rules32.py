"""Rules 32 of the Wh verifier: retractions and refusals read by their structure where their
words are not in the tables: a one-word candidate, then a clause of one or two unread words and
another candidate ("Ngerulmud, ei kun Koror.") or unread clauses before a colon ("Abuja. Nee,
wacht: Lagos.") ends on the last (uncertain); a candidate, then a later clause "(I believe) it
is (still) Y" or, after a correction's word, "moved to Y" ends on Y where Y is wrong
(uncertain); a candidate given up ("..., so I'll leave it"; uncertain), a "no" and "ich weiß es
nicht sicher", a source "than me" are refused; a caveat then "The last one I know of is Y"
guesses; "Unknown — it has been known since antiquity" claims. Every reply here was written for
these tests (none is taken from a labelled set), asked as a run asks it of the bundled KGs; per
group of rules, replies whose verdict rules 32 changes and at least thirty ordinary replies,
right and wrong, that keep the verdict and certainty they had under rules 30."""

from __future__ import annotations

from verdict_support import round_tests

from kglens_tui.answers.corrections import claimed_last, unread_retraction
from kglens_tui.answers.mentions import tokenize
from kglens_tui.answers.refusals import bare_not_knowing, gives_up, guesses, unknown_as_claim

CAPITAL = ("country", "capital", "city")
HEAD_GOV = ("country", "head_of_government", "person")
DISC = ("elements", "discovered_by", "person")
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
NGA_CAP = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
CIV_CAP = ("What is the capital of Ivory Coast?", ("Yamoussoukro",), CAPITAL)
TZA_CAP = ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL)
MYS_CAP = ("What is the capital of Malaysia?", ("Kuala Lumpur",), CAPITAL)
DEU_GOV = ("Who is the head of government of Germany?", ("Friedrich Merz",), HEAD_GOV)
LUX_GOV = ("Who is the head of government of Luxembourg?", ("Luc Frieden",), HEAD_GOV)
O_DISC = ("Who discovered Oxygen?", ("Carl Wilhelm Scheele",), DISC)
NE_DISC = ("Who discovered Neon?", ("William Ramsay",), DISC)


# Replies whose verdict or certainty rules 32 changes (the comment: what rules 30 gave)
CHANGED = [
    ('Canberra, ei kun Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Canberra, ei kun Perth.', AUS_CAP, 'incorrect', True),  # correct
    ('Abuja, ei kun Lagos.', NGA_CAP, 'incorrect', True),  # correct
    ('Dodoma, ei kun Arusha.', TZA_CAP, 'incorrect', True),  # correct
    ('Canberra. Nee, wacht: Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Abuja. Nee, wacht: Kano.', NGA_CAP, 'incorrect', True),  # correct
    ('Yamoussoukro — hmm, attendez: Abidjan.', CIV_CAP, 'incorrect', True),  # correct
    ('Canberra — scratch the name, I believe it is still Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Friedrich Merz — drop that, I believe it is still Olaf Scholz.', DEU_GOV, 'incorrect', True),  # correct
    ('Canberra — actually, parliament has moved to Darwin, so that is the capital now.', AUS_CAP, 'incorrect', True),  # correct
    ('Abuja — actually, the government moved to Port Harcourt.', NGA_CAP, 'incorrect', True),  # correct
    ("Canberra… Hmm, I honestly can't remember anymore, so I'll leave it.", AUS_CAP, 'refused', True),  # correct
    ("Abuja. I can't remember, so I'll pass.", NGA_CAP, 'refused', True),  # correct
    ("Friedrich Merz? I'm not sure anymore, so I won't guess.", DEU_GOV, 'refused', True),  # correct
    ('Abuja? Nein, doch nicht — ich weiß es nicht sicher.', NGA_CAP, 'refused', False),  # correct
    ('Canberra? Nee — ik weet het niet zeker.', AUS_CAP, 'refused', False),  # correct
    ("That's a question for a better-informed source than me.", LUX_GOV, 'refused', False),  # incorrect
    ('Someone more up-to-date than me would know.', DEU_GOV, 'refused', False),  # incorrect
    ("I don't have real-time information. The last chancellor I know of is Olaf Scholz.", DEU_GOV, 'incorrect', False),  # refused
    ("I can't browse the web. The most recent one I remember was Xavier Bettel.", LUX_GOV, 'incorrect', False),  # refused
    ('Unknown — it has been known since antiquity.', O_DISC, 'incorrect', False),  # refused
    ('Unknown — it was found in prehistoric times.', NE_DISC, 'incorrect', False),  # refused
]  # fmt: skip

KEPT = {
    'corrections': [
        ('Canberra — scratch that, I think it is Perth.', AUS_CAP, 'incorrect', False),
        ('Abuja — on second thought, it is Ibadan.', NGA_CAP, 'incorrect', False),
        ('Sydney, ei kun Canberra.', AUS_CAP, 'correct', False),
        ('Lagos, ei kun Abuja.', NGA_CAP, 'correct', False),
        ('Sydney. Nee, wacht: Canberra.', AUS_CAP, 'correct', False),
        ('Lagos. Nee, wacht: Abuja.', NGA_CAP, 'correct', False),
        ('Sydney — scratch the name, I believe it is Canberra.', AUS_CAP, 'correct', False),
        ('Olaf Scholz — drop that, I believe it is Friedrich Merz.', DEU_GOV, 'correct', False),
        ('Lagos — actually, the government moved to Abuja.', NGA_CAP, 'correct', False),
        ('Kuala Lumpur, though the government has largely moved to Putrajaya.', MYS_CAP, 'correct', False),
        ('Kuala Lumpur, though most ministries have moved to Putrajaya.', MYS_CAP, 'correct', False),
        ('Canberra, often written Canb.', AUS_CAP, 'correct', False),
        ('Canberra, czyli stolica Australii.', AUS_CAP, 'correct', False),
        ('Canberra, also called the Bush Capital.', AUS_CAP, 'correct', False),
        ('Canberra, sometimes called Sydney by mistake.', AUS_CAP, 'correct', False),
        ('Canberra, nie Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, not Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, oder Sydney.', AUS_CAP, 'incorrect', False),
        ('Canberra, y Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, near Sydney.', AUS_CAP, 'correct', False),
        ('Canberra. Economic hub: Sydney.', AUS_CAP, 'correct', False),
        ('Canberra. Largest city: Sydney.', AUS_CAP, 'correct', False),
        ('Canberra — it is Canberra.', AUS_CAP, 'correct', False),
        ('Canberra — I believe it is still Canberra.', AUS_CAP, 'correct', False),
        ('Canberra — many say it is Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, though people think it is Sydney.', AUS_CAP, 'correct', False),
        ('Canberra. The largest city is Sydney.', AUS_CAP, 'correct', False),
        ('Canberra — the court moved to Sydney.', AUS_CAP, 'correct', False),
        ('Abuja — the capital moved there from Lagos in 1991.', NGA_CAP, 'correct', False),
        ('Abuja; the government moved to Abuja from Lagos.', NGA_CAP, 'correct', False),
        ('Canberra: planned, not Sydney.', AUS_CAP, 'correct', False),
        ('Friedrich Merz — it is not Olaf Scholz.', DEU_GOV, 'correct', False),
        ('Friedrich Merz, nicht Olaf Scholz.', DEU_GOV, 'correct', False),
        ('Canberra, ja, Canberra.', AUS_CAP, 'correct', False),
        ('Sydney — actually, it is Canberra.', AUS_CAP, 'correct', False),
        ('Canberra — actually, it is Sydney.', AUS_CAP, 'incorrect', True),
    ],
    'refusals and guesses': [
        ('Dodoma? No — no lo sé seguro.', TZA_CAP, 'refused', False),
        ("Canberra. I can't remember more than that.", AUS_CAP, 'correct', False),
        ("Canberra, I think. I can't remember the year, so I'll leave that.", AUS_CAP, 'correct', False),
        ("Canberra, so I'll leave it at that.", AUS_CAP, 'correct', False),
        ("Canberra. I'm not sure why, so I'll check.", AUS_CAP, 'correct', False),
        ('Abuja? Nein — ich weiß es nicht.', NGA_CAP, 'refused', False),
        ('Abuja. Ich weiß es nicht sicher, aber Abuja.', NGA_CAP, 'correct', False),
        ("I don't know.", LUX_GOV, 'refused', False),
        ("I don't have real-time information. The last chancellor I know of is Friedrich Merz.", DEU_GOV, 'correct', False),
        ("I don't have real-time information.", DEU_GOV, 'refused', False),
        ("I can't say. It is not Olaf Scholz.", DEU_GOV, 'refused', False),
        ('Unknown.', O_DISC, 'refused', False),
        ('Unknown to me.', O_DISC, 'refused', False),
        ("Unknown — I don't have that information.", O_DISC, 'refused', False),
        ('Unknown — my sources do not say.', O_DISC, 'refused', False),
        ('Carl Wilhelm Scheele.', O_DISC, 'correct', False),
        ('Joseph Priestley.', O_DISC, 'incorrect', False),
        ("That's a question I can answer: Canberra.", AUS_CAP, 'correct', False),
        ('Canberra is bigger than me.', AUS_CAP, 'correct', False),
        ('Sydney is larger than Canberra.', AUS_CAP, 'correct', False),
        ("That's beyond me.", LUX_GOV, 'refused', False),
        ('No idea.', LUX_GOV, 'refused', False),
        ('Keine Ahnung.', LUX_GOV, 'refused', False),
        ("I'm not sure, but it might be Friedrich Merz.", DEU_GOV, 'correct', False),
        ("As an AI I can't browse. The answer is probably Friedrich Merz.", DEU_GOV, 'correct', False),
        ("I can't be certain. It isn't Olaf Scholz, I know that.", DEU_GOV, 'refused', False),
        ('Luc Frieden.', LUX_GOV, 'correct', False),
        ('Xavier Bettel.', LUX_GOV, 'incorrect', True),
        ("I'm sorry, but I don't know who it is.", DEU_GOV, 'refused', False),
        ('Nobody knows.', AUS_CAP, 'refused', False),
        ('Ich weiß es nicht.', LUX_GOV, 'refused', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_unread_retraction_in_one_clause() -> None:
    def start(reply: str) -> int:
        return unread_retraction(tokenize(reply), [])

    assert start("Lagos, ei kun Abuja.") == 3
    assert start("Lagos, often written Abuja.") == 0  # English words
    assert start("Lagos, ei kun vielä sitten Abuja.") == 0  # too many words in its clause


def test_claimed_last() -> None:
    def claim(reply: str) -> str:
        tokens = tokenize(reply)
        start, end = claimed_last(tokens, [])
        return " ".join(t.raw for t in tokens[start:end])

    assert claim("Lagos — scratch that, I believe it is still Abuja.") == "Abuja"
    assert claim("Lagos — actually, the government moved to Port Harcourt.") == "Port Harcourt"
    assert claim("Lagos, though the government moved to Abuja.") == ""  # no correction's word
    assert claim("Lagos — many say it is Abuja.") == ""


def test_refusal_readings_32() -> None:
    assert gives_up("I honestly can't remember anymore, so I'll leave it.")
    assert not gives_up("I can't remember the year, so I'll leave that to you. It's Abuja.")
    assert bare_not_knowing("doch nicht — ich weiß es nicht sicher", frozenset())
    assert guesses("I don't have real-time information. The last one I know of is Olaf Scholz.")
    assert not guesses("I don't know. It is not Olaf Scholz.")
    assert unknown_as_claim("Unknown — it has been known since antiquity.")
    assert not unknown_as_claim("Unknown — I don't have that information.")
    assert not unknown_as_claim("Unknown.")
