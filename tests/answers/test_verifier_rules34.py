"""Rules 34 of the Wh verifier: calibrated certainty by the part of the reading that gave a
verdict (`Checked.basis`). A sure "incorrect" given for a rival beside the true answer is uncertain,
its verdict kept, when the reply names the true answer first and every rival only after a break
(a later sentence, a semicolon, a dash, an opening bracket): the rival may be an aside
(`kglens_tui.answers.certainty.rival_after_a_break`). Every reply here was written for these tests
(none is taken from a labelled set), asked as a run asks it of the bundled KGs: the replies whose
certainty rules 34 changes, and at least thirty ordinary replies, right and wrong, that keep the
verdict and certainty they had under rules 33; then the basis of some of them."""

from __future__ import annotations

import pytest
from verdict_support import checked, round_tests

from kglens_tui.answers.basis import Basis
from kglens_tui.bench.verifier_bench import Rivals

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
LANGUAGE = ("country", "official_language", "language")
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
CAN_CUR = ("What currency is used in Canada?", ("Canadian Dollar",), CURRENCY)
EST_CUR = ("What currency is used in Estonia?", ("Euro",), CURRENCY)
IRN_LANG = ("What are the official languages of Iran?", ("Persian",), LANGUAGE)
IND_LANG = ("What are the official languages of India?", ("Hindi", "English"), LANGUAGE)
NPL_HIGH = (
    "What is the highest point in Nepal?",
    ("Mount Everest",),
    ("country", "highest_point", "mountain"),
)
PRT_BORDER = (
    "Which countries share a land border with Portugal?",
    ("Spain",),
    ("country", "shares_border_with", "country"),
)


# Replies whose certainty rules 34 changes (the comment: what rules 33 gave)
CHANGED = [
    ('Mount Everest; K2 is the second highest in the world.', NPL_HIGH, 'incorrect', True),  # incorrect, sure
    ('Mount Everest; Kanchenjunga and Lhotse are also very high.', NPL_HIGH, 'incorrect', True),  # incorrect, sure
    ('Persian; Kurdish is a regional language.', IRN_LANG, 'incorrect', True),  # incorrect, sure
    ('Spain — and France, by sea.', PRT_BORDER, 'incorrect', True),  # incorrect, sure
    ('Hindi and English; Tamil is official in Tamil Nadu.', IND_LANG, 'incorrect', True),  # incorrect, sure
    ('The euro; before that, the Estonian kroon.', EST_CUR, 'incorrect', True),  # incorrect, sure
]  # fmt: skip

KEPT = {
    'a rival after a break': [
        ('Mount Everest — K2, in Pakistan, is second.', NPL_HIGH, 'correct', True),
        ('Mount Everest (K2 is lower).', NPL_HIGH, 'correct', True),
        ('Mount Everest. K2 is second.', NPL_HIGH, 'correct', True),
        ('Mount Everest, K2 and Kanchenjunga.', NPL_HIGH, 'incorrect', False),
        ('Mount Everest or K2.', NPL_HIGH, 'incorrect', False),
        ('K2; Mount Everest is on the border.', NPL_HIGH, 'incorrect', False),
        ('Everest, not K2.', NPL_HIGH, 'correct', False),
        ('Mount Everest, then K2.', NPL_HIGH, 'incorrect', False),
        ('Mount Everest and K2.', NPL_HIGH, 'incorrect', False),
        ('Mount Everest.', NPL_HIGH, 'correct', False),
        ('Kanchenjunga.', NPL_HIGH, 'incorrect', False),
        ('K2 — no, Mount Everest.', NPL_HIGH, 'correct', False),
        ('Persian. Arabic is the language of the Quran.', IRN_LANG, 'correct', True),
        ('Persian, Arabic.', IRN_LANG, 'incorrect', False),
        ('Persian or Arabic.', IRN_LANG, 'incorrect', False),
        ('Arabic; Persian is spoken at home.', IRN_LANG, 'incorrect', False),
        ('Persian, Kurdish and Azerbaijani.', IRN_LANG, 'incorrect', False),
        ('Persian and Arabic.', IRN_LANG, 'incorrect', False),
        ('Persian.', IRN_LANG, 'correct', False),
        ('Arabic.', IRN_LANG, 'incorrect', False),
        ('Canberra; Sydney is the largest city.', AUS_CAP, 'correct', False),
        ('Canberra, Sydney and Melbourne.', AUS_CAP, 'incorrect', False),
        ('Canberra or Sydney.', AUS_CAP, 'incorrect', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Canberra, not Sydney.', AUS_CAP, 'correct', False),
        ('Sydney — no, Canberra.', AUS_CAP, 'correct', False),
        ('Spain and Morocco.', PRT_BORDER, 'incorrect', False),
        ('Morocco; Spain too.', PRT_BORDER, 'incorrect', False),
        ('Spain; Morocco is just across the strait.', PRT_BORDER, 'correct', True),
        ('Spain.', PRT_BORDER, 'correct', False),
        ('France.', PRT_BORDER, 'incorrect', False),
        ('Hindi, English and Tamil.', IND_LANG, 'incorrect', False),
        ('Hindi and English.', IND_LANG, 'correct', False),
        ('Tamil.', IND_LANG, 'incorrect', False),
        ('The euro (the kroon until 2011).', EST_CUR, 'correct', False),
        ('The euro and the kroon.', EST_CUR, 'incorrect', False),
        ('The euro.', EST_CUR, 'correct', False),
        ('The kroon.', EST_CUR, 'incorrect', False),
        ('The Canadian dollar and the US dollar.', CAN_CUR, 'incorrect', False),
        ('The US dollar.', CAN_CUR, 'incorrect', False),
        ('The Canadian dollar.', CAN_CUR, 'correct', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)

BASES = [
    ('Mount Everest — K2, in Pakistan, is second.', NPL_HIGH, Basis.NAMED),
    ('Mount Everest (K2 is lower).', NPL_HIGH, Basis.NAMED),
    ('Mount Everest. K2 is second.', NPL_HIGH, Basis.NAMED),
    ('Mount Everest, K2 and Kanchenjunga.', NPL_HIGH, Basis.RIVAL),
    ('Mount Everest or K2.', NPL_HIGH, Basis.RIVAL),
    ('K2; Mount Everest is on the border.', NPL_HIGH, Basis.RIVAL),
    ('Everest, not K2.', NPL_HIGH, Basis.NAMED),
    ('Mount Everest, then K2.', NPL_HIGH, Basis.RIVAL),
    ('Mount Everest and K2.', NPL_HIGH, Basis.RIVAL),
    ('Mount Everest.', NPL_HIGH, Basis.NAMED),
    ('Kanchenjunga.', NPL_HIGH, Basis.RIVAL_ONLY),
    ('K2 — no, Mount Everest.', NPL_HIGH, Basis.CORRECTED),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "asked", "basis"), BASES)
def test_a_verdict_says_which_part_of_the_reading_gave_it(
    rivals: Rivals, reply: str, asked: tuple, basis: Basis
) -> None:
    assert checked(rivals, reply, asked).basis is basis
