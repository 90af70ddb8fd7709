"""Rules 38 of the Wh verifier (docs/verdicts.md, "Rules 38"): a phrase of not knowing from a
small per-language table (`kglens_tui.answers.not_knowing`: "Da muss ich passen.", "Δεν έχω
ιδέα.", "اطلاعی ندارم.", "这个我答不上来。", "唔知喎。", "You've got me there.") refuses where the
reply names no candidate; a candidate named beside it (or beside the older table's phrases, "No
sé... ¿quizás Canberra?") keeps its verdict, hedged; a title in another language before a name
(`kglens_tui.answers.foreign_titles`: "El rey Felipe.", "Kanzler Merz.") reads as the English
title. Every reply here was written for these tests (none is taken from a labelled set), asked
as a run asks it of the bundled KGs: the replies whose verdict or mark rules 38 change, and at
least thirty ordinary replies per rule that keep what rules 37 gave them."""

from __future__ import annotations

import pytest
from verdict_support import checked, round_tests

from kglens_tui.bench.verifier_bench import Rivals

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

HOS = ("country", "head_of_state", "person")
HOG = ("country", "head_of_government", "person")
ESP_HOS = ("Who is the head of state of Spain?", ("Felipe VI",), HOS)
BEL_HOS = ("Who is the head of state of Belgium?", ("King Philippe",), HOS)
FRA_HOS = ("Who is the head of state of France?", ("Emmanuel Macron",), HOS)
GBR_HOS = ("Who is the head of state of the United Kingdom?", ("Charles III",), HOS)
DEU_HOG = ("Who is the head of government of Germany?", ("Friedrich Merz",), HOG)


# Replies whose verdict or mark rules 38 change (the comment: what rules 37 gave)
CHANGED = [
    ('Da muss ich passen.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ("Je préfère ne pas m'avancer là-dessus.", AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('To vám bohužel neřeknu.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('Δεν έχω ιδέα.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('Bu konuda bir fikrim yok.', AUS_CAP, 'refused', False),  # refused, uncertain
    ('لا علم لي بذلك.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('اطلاعی ندارم.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('আমি নিশ্চিত নই।', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('ちょっと分かりかねます。', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('这个我答不上来。', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('唔知喎。', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ("You've got me there.", AUS_CAP, 'refused', False),  # incorrect, sure
    ('Search me.', BOL_CAP, 'refused', False),  # incorrect, uncertain
    ('Ich bin mir nicht sicher.', BOL_CAP, 'refused', False),  # refused, uncertain
    ('No estoy seguro.', BOL_CAP, 'refused', False),  # incorrect, sure
    ('Não tenho ideia.', BOL_CAP, 'refused', False),  # refused, uncertain
    ('Non ho idea.', BOL_CAP, 'refused', False),  # refused, uncertain
    ('Geen flauw idee.', BOL_CAP, 'refused', False),  # refused, uncertain
    ('Nie jestem pewien.', BOL_CAP, 'refused', False),  # refused, uncertain
    ('Без понятия.', BOL_CAP, 'refused', False),  # incorrect, uncertain
    ('Гадки не маю.', BOL_CAP, 'refused', False),  # incorrect, uncertain
    ('Emin değilim.', BOL_CAP, 'refused', False),  # incorrect, uncertain
    ('मुझे कोई अंदाज़ा नहीं।', IND_HOG, 'refused', False),  # incorrect, uncertain
    ('پتہ نہیں۔', IND_HOG, 'refused', False),  # incorrect, uncertain
    ('Saya kurang tahu.', IND_HOG, 'refused', False),  # refused, uncertain
    ('Tôi không chắc.', VNM_CAP, 'refused', False),  # incorrect, uncertain
    ('ไม่แน่ใจครับ', VNM_CAP, 'refused', False),  # incorrect, uncertain
    ('Sina uhakika.', VNM_CAP, 'refused', False),  # refused, uncertain
    ('Da weiß ich nicht.', AUS_CAP, 'refused', False),  # incorrect, uncertain
    ('Boh.', PAK_CAP, 'refused', False),  # incorrect, uncertain
    ('El rey Felipe.', ESP_HOS, 'correct', False),  # incorrect, sure
    ('Kanzler Merz.', DEU_HOG, 'correct', False),  # incorrect, uncertain
    ('König Charles.', GBR_HOS, 'correct', False),  # incorrect, uncertain
]  # fmt: skip


# Replies that keep rules 37's verdicts and marks
KEPT = {
    "a phrase of not knowing": [
        ("I couldn't say.", BOL_CAP, 'refused', False),
        ('잘 모르겠어요.', VNM_CAP, 'refused', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Sydney.', AUS_CAP, 'incorrect', True),
        ('Ich glaube, Canberra.', AUS_CAP, 'correct', False),
        ('Keine Ahnung.', AUS_CAP, 'refused', False),
        ('Je ne sais pas.', AUS_CAP, 'refused', False),
        ('No idea.', AUS_CAP, 'refused', False),
        ("I don't know.", AUS_CAP, 'refused', False),
        ('Canberra, da bin ich sicher.', AUS_CAP, 'correct', False),
        ('Sicher Canberra.', AUS_CAP, 'correct', False),
        ("C'est Canberra, j'en suis sûr.", AUS_CAP, 'correct', False),
        ('Estoy seguro: Canberra.', AUS_CAP, 'correct', False),
        ('La Paz.', BOL_CAP, 'incorrect', True),
        ('Sucre.', BOL_CAP, 'correct', False),
        ('Sucre, não La Paz.', BOL_CAP, 'correct', False),
        ('A capital é Sucre.', BOL_CAP, 'correct', False),
        ('La capitale è Sucre.', BOL_CAP, 'correct', False),
        ('Het is Sucre.', BOL_CAP, 'correct', False),
        ('Stolicą jest Sucre.', BOL_CAP, 'correct', False),
        ('Столица — Сукре.', BOL_CAP, 'correct', False),
        ("Başkent Sucre'dir.", BOL_CAP, 'incorrect', True),
        ('Narendra Modi.', IND_HOG, 'correct', False),
        ('Rahul Gandhi.', IND_HOG, 'incorrect', True),
        ('नरेंद्र मोदी।', IND_HOG, 'correct', False),
        ("Modi, I'm sure.", IND_HOG, 'correct', False),
        ('Hà Nội.', VNM_CAP, 'correct', False),
        ('Sài Gòn.', VNM_CAP, 'incorrect', True),
        ('ハノイです。', VNM_CAP, 'correct', False),
        ('河内。', VNM_CAP, 'incorrect', True),
        ('하노이입니다.', VNM_CAP, 'correct', False),
        ('Islamabad.', PAK_CAP, 'correct', False),
        ('Karachi.', PAK_CAP, 'incorrect', True),
        ('اسلام آباد۔', PAK_CAP, 'correct', False),
        ('Belmopan.', BLZ_CAP, 'correct', False),
        ('Belize City.', BLZ_CAP, 'incorrect', False),
        ('The capital is Belmopan, no doubt.', BLZ_CAP, 'correct', False),
        ('Belmopan, not Belize City.', BLZ_CAP, 'correct', False),
        ("It's Canberra, not Sydney.", AUS_CAP, 'correct', False),
        ('Canberra. Nie wiem, ile ma mieszkańców.', AUS_CAP, 'correct', False),
        ('Canberra. No sé cuántos habitantes tiene.', AUS_CAP, 'correct', False),
        ('Deja, nežinau.', AUS_CAP, 'refused', False),
        ('Nažalost, ne znam.', AUS_CAP, 'refused', False),
        ('Sydney. Keine Ahnung, warum.', AUS_CAP, 'incorrect', False),
        ("Canberra — I'm certain.", AUS_CAP, 'correct', False),
    ],
    "a title in another language": [
        ('Der Bundeskanzler Friedrich Merz.', DEU_HOG, 'correct', False),
        ('Le président Macron.', FRA_HOS, 'correct', False),
        ('Rey Felipe VI.', ESP_HOS, 'correct', False),
        ('Koning Philippe.', BEL_HOS, 'correct', False),
        ('Il presidente Macron.', FRA_HOS, 'correct', False),
        ('King Felipe.', ESP_HOS, 'correct', False),
        ('Felipe VI.', ESP_HOS, 'correct', False),
        ('El rey Juan Carlos.', ESP_HOS, 'incorrect', False),
        ('Juan Carlos.', ESP_HOS, 'incorrect', True),
        ('Chancellor Merz.', DEU_HOG, 'correct', False),
        ('Friedrich Merz.', DEU_HOG, 'correct', False),
        ('Kanzler Scholz.', DEU_HOG, 'incorrect', True),
        ('Olaf Scholz.', DEU_HOG, 'incorrect', True),
        ('Kanzlerin Merkel.', DEU_HOG, 'incorrect', True),
        ('Angela Merkel.', DEU_HOG, 'incorrect', True),
        ('Der Kanzler.', DEU_HOG, 'incorrect', True),
        ('Merz.', DEU_HOG, 'correct', False),
        ('President Macron.', FRA_HOS, 'correct', False),
        ('Emmanuel Macron.', FRA_HOS, 'correct', False),
        ('Président Hollande.', FRA_HOS, 'incorrect', True),
        ('Le président.', FRA_HOS, 'refused', False),
        ('François Hollande.', FRA_HOS, 'incorrect', True),
        ('Macron.', FRA_HOS, 'correct', False),
        ('King Charles.', GBR_HOS, 'correct', False),
        ('Charles III.', GBR_HOS, 'correct', False),
        ('Queen Elizabeth.', GBR_HOS, 'incorrect', True),
        ('Königin Elisabeth.', GBR_HOS, 'incorrect', True),
        ('Re Carlo III.', GBR_HOS, 'incorrect', True),
        ('Prince William.', GBR_HOS, 'incorrect', True),
        ('Prinz William.', GBR_HOS, 'incorrect', True),
        ('King Philippe.', BEL_HOS, 'correct', False),
        ('Philippe.', BEL_HOS, 'correct', False),
        ('Koning Albert.', BEL_HOS, 'incorrect', True),
        ('Albert II.', BEL_HOS, 'incorrect', False),
        ('Le roi Baudouin.', BEL_HOS, 'incorrect', False),
        ('Prime Minister Sánchez.', ESP_HOS, 'incorrect', True),
        ('Presidente Sánchez.', ESP_HOS, 'incorrect', True),
        ('Pedro Sánchez.', ESP_HOS, 'incorrect', True),
        ('El rey.', ESP_HOS, 'incorrect', False),
    ],
}  # fmt: skip


# Replies that keep their verdict and mark, now hedged (rules 37: not hedged)
HEDGED = [
    ('No sé... ¿quizás Canberra?', AUS_CAP, 'correct'),
    ('Keine Ahnung, Canberra.', AUS_CAP, 'correct'),
    ('Je ne suis pas sûr, Canberra.', AUS_CAP, 'correct'),
    ('Keine Ahnung, vielleicht Sydney?', AUS_CAP, 'incorrect'),
    ("You've got me there — Canberra.", AUS_CAP, 'correct'),
]  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


@pytest.mark.parametrize(("reply", "asked", "verdict"), HEDGED)
def test_hedged_after_not_knowing(rivals: Rivals, reply: str, asked: tuple, verdict: str) -> None:
    got = checked(rivals, reply, asked)
    assert (got.verdict.value, got.uncertain, got.hedged) == (verdict, False, True)
