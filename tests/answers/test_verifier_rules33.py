"""Rules 33 of the Wh verifier: calibrated certainty. A sure verdict of a reply the reading did not
read is uncertain, its verdict kept (`kglens_tui.answers.certainty`): a sentence of at least
four words, mostly words no table or English word list knows, with no English closed-class word,
no hedge and no two capitalised words in a row, in which the tables find no name ("Je ne dispose
pas de données à jour pour répondre avec certitude."); a reply in letters other than Latin ones
in which the tables find no name ("富士山（3,776 m）"). Every reply here was written for these
tests (none is taken from a labelled set), asked as a run asks it of the bundled KGs; per rule,
replies whose certainty rules 33 changes and at least thirty ordinary replies, right and wrong,
that keep the verdict and certainty they had under rules 32."""

from __future__ import annotations

from verdict_support import round_tests

CAPITAL = ("country", "capital", "city")
HEAD_GOV = ("country", "head_of_government", "person")
CURRENCY = ("country", "currency", "currency")
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
NGA_CAP = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
JPN_CAP = ("What is the capital of Japan?", ("Tokyo",), CAPITAL)
DEU_GOV = ("Who is the head of government of Germany?", ("Friedrich Merz",), HEAD_GOV)
KOR_CUR = ("What is the currency of South Korea?", ("South Korean won",), CURRENCY)
ELM_STATE = (
    "What is the state of matter of Mercury at room temperature?",
    ("liquid",),
    ("elements", "state_of_matter", "state"),
)


# Replies whose certainty rules 33 changes (the comment: what rules 32 gave)
CHANGED = [
    ('Je ne sais vraiment rien de cette question précise.', AUS_CAP, 'incorrect', True),  # incorrect, sure
    ('Ich kann leider keine verlässliche Angabe machen.', AUS_CAP, 'incorrect', True),  # incorrect, sure
    ('Não tenho certeza e prefiro não responder agora.', NGA_CAP, 'refused', False),  # incorrect, sure; rules 38: "não tenho certeza"
    ('Üzgünüm, bu soruyu kesin olarak yanıtlayamam.', NGA_CAP, 'incorrect', True),  # incorrect, sure
    ('Mi dispiace, non posso rispondere con sicurezza.', JPN_CAP, 'refused', False),  # incorrect, sure; rules 38: "non posso rispondere"
    ('Przepraszam, nie potrafię odpowiedzieć na pewno.', AUS_CAP, 'incorrect', True),  # incorrect, sure
    ('Beklager, jeg kan ikke svare sikkert på dette.', NGA_CAP, 'incorrect', True),  # incorrect, sure
    ('한국의 화폐 단위는 원입니다.', KOR_CUR, 'incorrect', True),  # incorrect, sure
    ("Il s'agit sans doute de Sydney.", AUS_CAP, 'incorrect', True),  # incorrect, sure
    ("Hmm, c'est difficile à dire pour moi.", AUS_CAP, 'incorrect', True),  # incorrect, sure
]  # fmt: skip

KEPT = {
    'sentences of unknown words': [
        ('Maaf, saya tidak tahu jawaban yang pasti.', DEU_GOV, 'refused', False),
        ('Xin lỗi, tôi không biết câu trả lời chính xác.', DEU_GOV, 'refused', False),
        ('Lo siento, prefiero no arriesgar una respuesta.', JPN_CAP, 'refused', False),
        ('Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra.', AUS_CAP, 'correct', False),
        ("I don't know.", AUS_CAP, 'refused', False),
        ("I don't know, maybe Sydney?", AUS_CAP, 'incorrect', False),
        ("None — it's a big city.", AUS_CAP, 'incorrect', False),
        ('Andrés Manuel del Río.', DEU_GOV, 'incorrect', False),
        ('Muhammad bin Salman Al Saud.', DEU_GOV, 'incorrect', False),
        ('Olaf Scholz.', DEU_GOV, 'incorrect', True),
        ('Friedrich Merz.', DEU_GOV, 'correct', False),
        ('La capitale est Sydney.', AUS_CAP, 'incorrect', True),
        ('Die Hauptstadt ist Sydney.', AUS_CAP, 'incorrect', True),
        ('La capitale est Canberra.', AUS_CAP, 'correct', False),
        ('Keine Ahnung.', AUS_CAP, 'refused', False),
        ('Je ne sais pas.', AUS_CAP, 'refused', False),
        ('The largest city of the country.', AUS_CAP, 'incorrect', False),
        ('It is a planned city near the mountains.', AUS_CAP, 'incorrect', False),
        ('Probably the biggest harbour town there.', AUS_CAP, 'incorrect', False),
        ('Perhaps a city founded in the last century.', AUS_CAP, 'incorrect', False),
        ('Melbourne, then Sydney, then Perth.', AUS_CAP, 'incorrect', False),
        ('Tsy haiko.', AUS_CAP, 'refused', True),
        ('Ech weess et net.', AUS_CAP, 'refused', True),
        ('Lagos.', NGA_CAP, 'incorrect', True),
        ('Abuja, not Lagos.', NGA_CAP, 'correct', False),
        ('Tokio.', JPN_CAP, 'correct', False),
        ('Kyoto.', JPN_CAP, 'incorrect', True),
        ('Osaka, I think.', JPN_CAP, 'incorrect', False),
        ('The won.', KOR_CUR, 'correct', False),
        ('The yen.', KOR_CUR, 'incorrect', False),
        ('₩', KOR_CUR, 'correct', False),
        ('¥', KOR_CUR, 'incorrect', False),
        ('Angela Merkel.', DEU_GOV, 'incorrect', True),
        ('Merz.', DEU_GOV, 'correct', False),
        ('Chancellor Scholz.', DEU_GOV, 'incorrect', True),
        ('Bundeskanzler Friedrich Merz.', DEU_GOV, 'correct', False),
        ('Kanzler ist Olaf Scholz.', DEU_GOV, 'incorrect', False),
        ('Sydney — sorry, Canberra.', AUS_CAP, 'correct', False),
        ('Canberra — sorry, Sydney.', AUS_CAP, 'incorrect', True),
        ('Canberra, a właściwie Sydney.', AUS_CAP, 'incorrect', True),
        ('No lo sé, quizás Sídney.', AUS_CAP, 'incorrect', False),
        ('Ni idea.', AUS_CAP, 'refused', False),
        ('Nie wiem.', AUS_CAP, 'refused', False),
        ('Weiß ich nicht.', AUS_CAP, 'refused', False),
        ('Tōkyō.', JPN_CAP, 'correct', False),
        ('Liquid.', ELM_STATE, 'correct', False),
        ('Solid.', ELM_STATE, 'incorrect', True),
        ('The won (₩).', KOR_CUR, 'correct', False),
        ('The yen (¥).', KOR_CUR, 'incorrect', False),
        ("I'm not sure — perhaps Sydney.", AUS_CAP, 'incorrect', False),
        ("It might be Canberra, I'm not certain.", AUS_CAP, 'correct', False),
        ('Sorry, I really cannot say for sure.', AUS_CAP, 'refused', False),
        ('That information is not available to me.', AUS_CAP, 'refused', False),
        ('La capital de Australia es Canberra.', AUS_CAP, 'correct', False),
        ('A capital da Nigéria é Abuja.', NGA_CAP, 'correct', False),
        ('Die Hauptstadt von Nigeria ist Lagos.', NGA_CAP, 'incorrect', False),
        ('Il capitale è Tokyo.', JPN_CAP, 'correct', False),
        ('Le chancelier est Friedrich Merz.', DEU_GOV, 'correct', False),
        ('Der Kanzler heißt Olaf Scholz.', DEU_GOV, 'incorrect', False),
    ],
    'other letters': [
        ('日本の首都は東京です。', JPN_CAP, 'correct', False),
        ('東京', JPN_CAP, 'correct', False),
        ('Столица Австралии — Канберра.', AUS_CAP, 'correct', False),
        ('Канберра.', AUS_CAP, 'correct', False),
        ('Сидней.', AUS_CAP, 'incorrect', True),
        ('悉尼。', AUS_CAP, 'incorrect', True),
        ('ケベック', AUS_CAP, 'incorrect', True),
        ('Москва.', AUS_CAP, 'incorrect', True),
        ('Канберра, а не Сидней.', AUS_CAP, 'correct', False),
        ('Абуджа.', NGA_CAP, 'correct', False),  # rules 35: GeoNames' Russian name of Abuja
        ('Лагос.', NGA_CAP, 'incorrect', True),
        ('東京です。', JPN_CAP, 'correct', False),
        ('とうきょう', JPN_CAP, 'incorrect', True),
        ('京都。', JPN_CAP, 'incorrect', True),
        ('أبوجا', NGA_CAP, 'correct', False),
        ('لاغوس', NGA_CAP, 'incorrect', True),
        ('Αμπούτζα.', NGA_CAP, 'incorrect', True),
        ('Καμπέρα.', AUS_CAP, 'correct', False),
        ('원', KOR_CUR, 'incorrect', True),
        ('北京。', JPN_CAP, 'incorrect', True),
        ('엔', KOR_CUR, 'incorrect', True),
        ('Фридрих Мерц.', DEU_GOV, 'incorrect', True),
        ('Олаф Шольц.', DEU_GOV, 'incorrect', True),
        ('Canberra (キャンベラ).', AUS_CAP, 'correct', False),
        ('Abuja (أبوجا).', NGA_CAP, 'correct', False),
        ('Tokyo (東京).', JPN_CAP, 'correct', False),
        ('Kyoto (京都).', JPN_CAP, 'incorrect', True),
        ('液体', ELM_STATE, 'incorrect', True),
        ('Жидкость.', ELM_STATE, 'incorrect', True),
        ('Friedrich Merz (Фридрих Мерц).', DEU_GOV, 'correct', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)
