"""Rules 37 of the Wh verifier (docs/verdicts.md, "Rules 37"): a cue of second thoughts from a
small per-language table (`kglens_tui.answers.retraction_cues`: "I had it backwards", "that's
wrong", Vietnamese "à không", Bengali "না", Urdu "ذرا ٹھہریں", Portuguese "quer dizer") that opens
a clause after a candidate takes it back where what follows offers another (in a script without
capitals, one to four words; after "that's wrong", "it moved to" and a name). Every reply here
was written for these tests (none is taken from a labelled set), asked as a run asks it of the
bundled KGs: the replies whose verdict or mark rules 37 change, and at least thirty ordinary
replies per rule that keep what rules 36 gave them."""

from __future__ import annotations

from verdict_support import round_tests

CAPITAL = ("country", "capital", "city")
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
BLZ_CAP = ("What is the capital of Belize?", ("Belmopan",), CAPITAL)
VNM_CAP = ("What is the capital of Vietnam?", ("Hanoi",), CAPITAL)
PAK_CAP = ("What is the capital of Pakistan?", ("Islamabad",), CAPITAL)
BOL_CAP = ("What is the capital of Bolivia?", ("Sucre",), CAPITAL)
IND_HOG = (
    "Who is the head of government of India?",
    ("Narendra Modi",),
    ("country", "head_of_government", "person"),
)


# Replies whose verdict or mark rules 37 change (the comment: what rules 36 gave)
CHANGED = [
    ('Canberra. Hmm, I had it backwards: Sydney.', AUS_CAP, 'incorrect', True),  # correct, sure
    ('Sucre. Hmm, I had it backwards: La Paz.', BOL_CAP, 'incorrect', True),  # correct, sure
    ('Canberra. I had them backwards: Sydney.', AUS_CAP, 'incorrect', True),  # correct, sure
    ("Belize City. That's wrong — it moved to Belmopan in 1970.", BLZ_CAP, 'correct', False),  # incorrect, sure
    ("Belmopan. That's wrong — it moved to Belize City in 1970.", BLZ_CAP, 'incorrect', False),  # correct, sure
    ('Hà Nội, à không, Sài Gòn.', VNM_CAP, 'incorrect', True),  # correct, sure
    ('Hanoi, à không, Saigon.', VNM_CAP, 'incorrect', True),  # correct, sure
    ('Canberra, à không, Sydney.', AUS_CAP, 'incorrect', True),  # correct, sure
    ('Islamabad. ذرا ٹھہریں، کراچی۔', PAK_CAP, 'incorrect', True),  # correct, sure
    ('মোদী... না, রাহুল গান্ধী।', IND_HOG, 'incorrect', True),  # correct, sure
    ('Melbourne, não, Sydney.', AUS_CAP, 'incorrect', True),  # incorrect, sure
]  # fmt: skip


# Ordinary replies that keep rules 36's verdicts and marks
KEPT = {
    "a retraction cue": [
        ('Sydney. Hmm, I had it backwards: Canberra.', AUS_CAP, 'correct', False),
        ('Sydney. I had that backwards — Canberra.', AUS_CAP, 'correct', False),
        ("Sydney. That's wrong: Canberra.", AUS_CAP, 'correct', False),
        ('Sài Gòn, à không, Hà Nội.', VNM_CAP, 'correct', False),
        ('Canberra, não, Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra, non, Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra, não, quer dizer, Sydney.', AUS_CAP, 'incorrect', True),
        ('Sydney, não, quer dizer, Canberra.', AUS_CAP, 'correct', False),
        ('Canberra — nee wacht, Sydney.', AUS_CAP, 'incorrect', True),
        ('Islamabad. نہیں، کراچی۔', PAK_CAP, 'correct', False),
        ('Canberra. Wrong — Sydney.', AUS_CAP, 'incorrect', True),
        ('Sydney. Wrong — Canberra.', AUS_CAP, 'correct', False),
        ('Canberra. I mixed them up: Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Canberra, not Sydney.', AUS_CAP, 'correct', False),
        ("Canberra. That's wrong, people say Sydney.", AUS_CAP, 'correct', False),
        ("Canberra; Sydney is often named, but that's wrong.", AUS_CAP, 'correct', False),
        ("Sydney is wrong; it's Canberra.", AUS_CAP, 'correct', False),
        ('Canberra, não Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, không phải Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra, non-Sydney.', AUS_CAP, 'correct', False),
        ('Canberra. Non, vraiment.', AUS_CAP, 'correct', False),
        ("Canberra. That's wrong of people to forget.", AUS_CAP, 'correct', False),
        ('Canberra. Wrong guesses are Sydney and Melbourne.', AUS_CAP, 'correct', False),
        ('Canberra — nee, echt.', AUS_CAP, 'correct', False),
        ('Canberra, à không, tôi không chắc.', AUS_CAP, 'correct', False),
        ('Canberra. I had it backwards before, but Canberra is right.', AUS_CAP, 'correct', False),
        ("Sydney. Wrong, it's Canberra.", AUS_CAP, 'correct', False),
        ('Canberra. Wrong? No.', AUS_CAP, 'incorrect', True),
        ("Belmopan. That's wrong — it never moved.", BLZ_CAP, 'correct', False),
        ('Belmopan. It moved to Belmopan from Belize City in 1970.', BLZ_CAP, 'correct', False),
        ('Belmopan; the capital moved there from Belize City.', BLZ_CAP, 'correct', False),
        ('Hanoi, không, Hanoi.', VNM_CAP, 'correct', False),
        ('Hà Nội.', VNM_CAP, 'correct', False),
    ],
    "a cue in another language or script": [
        ('Melbourne. Wrong — Sydney.', AUS_CAP, 'incorrect', False),
        ('Hanoi, not Saigon.', VNM_CAP, 'correct', False),
        ('Hanoi (không phải Sài Gòn).', VNM_CAP, 'correct', False),
        ('Sucre, not La Paz.', BOL_CAP, 'correct', False),
        ('Sucre. La Paz is the seat of government.', BOL_CAP, 'correct', False),
        ('Sucre, non La Paz.', BOL_CAP, 'correct', False),
        ('Sucre, não La Paz.', BOL_CAP, 'correct', False),
        ('Islamabad.', PAK_CAP, 'correct', False),
        ('اسلام آباد', PAK_CAP, 'correct', False),
        ('Islamabad, not Karachi.', PAK_CAP, 'correct', False),
        ('Islamabad; Karachi is the largest city.', PAK_CAP, 'correct', False),
        ('Narendra Modi.', IND_HOG, 'correct', False),
        ('মোদী', IND_HOG, 'correct', False),
        ('Modi, not Rahul Gandhi.', IND_HOG, 'correct', False),
        ('Narendra Modi — no doubt.', IND_HOG, 'correct', False),
        ('Canberra. Non.', AUS_CAP, 'correct', False),
        ('Canberra. Wrong.', AUS_CAP, 'correct', False),
        ("Canberra. That's wrong.", AUS_CAP, 'correct', False),
        ('Canberra. No.', AUS_CAP, 'correct', False),
        ('Canberra. Hmm.', AUS_CAP, 'correct', False),
        ('Canberra, quer dizer, a capital federal.', AUS_CAP, 'correct', False),
        ('Canberra — I mixed it up with nothing.', AUS_CAP, 'correct', False),
        ('Canberra, wrong as it may sound to some.', AUS_CAP, 'correct', False),
        ('Canberra, không.', AUS_CAP, 'correct', False),
        ('Sydney, không phải.', AUS_CAP, 'incorrect', False),
        ('Sydney. Hmm, I had it backwards.', AUS_CAP, 'incorrect', False),
        ('Canberra (not Sydney, which is wrong).', AUS_CAP, 'correct', False),
        ('Perth, à không, Canberra.', AUS_CAP, 'correct', False),
        ('Belize City.', BLZ_CAP, 'incorrect', False),
        ('Belmopan, since 1970.', BLZ_CAP, 'correct', False),
        ('Belmopan; it moved from Belize City after Hurricane Hattie.', BLZ_CAP, 'correct', False),
        ('Canberra, nee.', AUS_CAP, 'correct', False),
        ('Canberra. Bukan Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra. Hapana Sydney.', AUS_CAP, 'incorrect', True),
        ('Sydney, hapana, Canberra.', AUS_CAP, 'correct', False),
        ('Sydney, bukan, Canberra.', AUS_CAP, 'correct', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)
