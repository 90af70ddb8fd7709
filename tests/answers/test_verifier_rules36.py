"""Rules 36 of the Wh verifier (docs/verdicts.md, "Rules 36"): a lone candidate taken back in
doubt, with no other given, is no answer ("Niamey... actually, I'm not certain. I'll leave it
unanswered."; `kglens_tui.answers.withdrawals`); a verb that takes back a name the reply gave
("Scratch French: English and Irish.") and "let me recount" correct as "scratch that" does; a sure
"no name found" for a name given with its former name is uncertain ("Uhuru Peak, formerly
Kaiser-Wilhelm-Spitze."; `kglens_tui.answers.former_names`); a language name with a one-letter
CLDR joining word written onto it ("العربية والإنجليزية") is read as a list; a currency sign is
compared with CLDR's in Unicode's compatibility forms ("₨" is "Rs"), without format characters,
closing stop or spaces; capitalised words of a source the reply sends the reader to ("consult the
CIA World Factbook") offer no candidate, and a sentence too long to decline is read by its parts
between semicolons and dashes. Every reply here was
written for these tests (none is taken from a labelled set), asked as a run asks it of the bundled
KGs: the replies whose verdict or mark rules 36 change, and at least thirty ordinary replies per
rule that keep what rules 35 gave them."""

from __future__ import annotations

from verdict_support import round_tests

CAPITAL = ("country", "capital", "city")
LANGUAGE = ("country", "official_language", "language")
CURRENCY = ("country", "currency", "currency")
HOS = ("country", "head_of_state", "person")
NER_CAP = ("What is the capital of Niger?", ("Niamey",), CAPITAL)
HND_CAP = ("What is the capital of Honduras?", ("Tegucigalpa",), CAPITAL)
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
IRL_LANG = ("What are the official languages of Ireland?", ("English", "Irish"), LANGUAGE)
EGY_LANG = ("What are the official languages of Egypt?", ("Arabic",), LANGUAGE)
TZA_HIGH = (
    "What is the highest point in Tanzania?",
    ("Kilimanjaro",),
    ("country", "highest_point", "mountain"),
)
FE_PER = (
    "In which period of the periodic table is Iron?",
    ("period 4",),
    ("elements", "period", "period"),
)
PAK_CUR = ("What currency is used in Pakistan?", ("Pakistani Rupee", "PKR"), CURRENCY)
MUS_CUR = ("What currency is used in Mauritius?", ("Mauritian Rupee", "MUR"), CURRENCY)
ARE_CUR = (
    "What currency is used in the United Arab Emirates?",
    ("United Arab Emirates Dirham", "AED"),
    CURRENCY,
)
SEN_CUR = ("What currency is used in Senegal?", ("West African CFA Franc", "XOF"), CURRENCY)
MEX_CUR = ("What currency is used in Mexico?", ("Mexican Peso", "MXN"), CURRENCY)
NPL_HOS = ("Who is the head of state of Nepal?", ("Ram Chandra Poudel",), HOS)
PER_HOS = ("Who is the head of state of Peru?", ("José Jerí",), HOS)


# Replies whose verdict or mark rules 36 change (the comment: what rules 35 gave)
CHANGED = [
    ("Niamey... actually, I'm not certain. I'll leave it unanswered.", NER_CAP, 'refused', True),  # correct, sure
    ("Niamey? Actually I'm not sure at all — I'd rather not guess.", NER_CAP, 'refused', True),  # correct, sure
    ("Tegucigalpa? Hmm, I'm honestly not sure — I'd better not answer.", HND_CAP, 'refused', True),  # correct, sure
    ("Maybe Niamey... actually I don't know.", NER_CAP, 'refused', True),  # correct, sure
    ("Niamey — actually, I'm not sure about that. I don't know.", NER_CAP, 'refused', True),  # correct, sure
    ("Zinder... actually, I'm not certain. I'll leave it unanswered.", NER_CAP, 'refused', True),  # incorrect, sure
    ("Maybe Zinder... actually I don't know.", NER_CAP, 'refused', True),  # incorrect, sure
    ("Canberra. Hmm, I'm not sure. I won't guess.", AUS_CAP, 'refused', True),  # correct, sure
    ("Sydney? Actually I'm not sure at all — I'd rather not guess.", AUS_CAP, 'refused', True),  # incorrect, sure
    ('French. Scratch French: English and Irish.', IRL_LANG, 'correct', False),  # incorrect, sure
    ('Period 3. Let me recount: period 4.', FE_PER, 'correct', False),  # incorrect, sure
    ('Period 3 — let me recheck: period 4.', FE_PER, 'correct', False),  # incorrect, sure
    ('English and Irish. Scratch Irish: English and French.', IRL_LANG, 'incorrect', True),  # correct, uncertain
    ('Canberra. Scratch Canberra: Sydney.', AUS_CAP, 'incorrect', True),  # correct, sure
    ('Uhuru Peak, formerly Kaiser-Wilhelm-Spitze.', TZA_HIGH, 'incorrect', True),  # incorrect, sure
    ('Mount Meru, formerly called Socialist Peak.', TZA_HIGH, 'incorrect', True),  # incorrect, sure
    ('Melbourne, formerly Batmania.', AUS_CAP, 'incorrect', True),  # incorrect, sure
    ('Comayagua, formerly Valladolid.', HND_CAP, 'incorrect', True),  # incorrect, sure
    ('Gelbe Stadt, formerly Blaue Stadt.', HND_CAP, 'incorrect', True),  # incorrect, sure
    ('Ciudad Nueva, until 1880 Villa Vieja.', HND_CAP, 'incorrect', True),  # incorrect, sure
    ('Sydney, formerly Port Jackson.', AUS_CAP, 'incorrect', True),  # incorrect, sure
    ('العربية والإنجليزية', EGY_LANG, 'incorrect', False),  # correct, sure
    ('العربية والفرنسية', EGY_LANG, 'incorrect', False),  # correct, sure
    ('₨', PAK_CUR, 'correct', True),  # incorrect, uncertain
    ('₨.', PAK_CUR, 'correct', True),  # incorrect, uncertain
    ('₨', MUS_CUR, 'correct', True),  # incorrect, uncertain
    ('د.إ', ARE_CUR, 'correct', True),  # incorrect, uncertain
    ('FCFA', SEN_CUR, 'correct', True),  # incorrect, uncertain
    ('You may want to consult the CIA World Factbook for that.', NPL_HOS, 'refused', False),  # incorrect, sure
    ("I'd suggest checking the Nepali government's official website.", NPL_HOS, 'refused', False),  # incorrect, sure
    ("My knowledge may be outdated here, and I don't want to give you a wrong name — please check an official government source.", PER_HOS, 'refused', False),  # incorrect, sure
    ("I don't want to guess; check the Peruvian government's website.", PER_HOS, 'refused', False),  # incorrect, sure
]  # fmt: skip

KEPT = {
    'a candidate taken back in doubt': [
        ('Niamey.', NER_CAP, 'correct', False),
        ('Niamey, I think.', NER_CAP, 'correct', False),
        ("Niamey. I'm not sure, though.", NER_CAP, 'correct', False),
        ("Niamey, I think, but I don't know for sure.", NER_CAP, 'correct', False),
        ("Niamey. I'm not sure.", NER_CAP, 'correct', False),
        ("Niamey? I'm not sure; it could be Zinder.", NER_CAP, 'correct', False),
        ('Niamey — actually, no: Zinder.', NER_CAP, 'incorrect', True),
        ('Zinder — actually, no: Niamey.', NER_CAP, 'correct', False),
        ('Maybe Niamey.', NER_CAP, 'correct', False),
        ('Maybe Zinder.', NER_CAP, 'incorrect', False),
        ("Perhaps Niamey, though I'm not certain.", NER_CAP, 'correct', False),
        ("I don't know.", NER_CAP, 'refused', False),
        ("I'm not sure. Niamey?", NER_CAP, 'correct', False),
        ("Niamey, but I don't know its population.", NER_CAP, 'correct', False),
        ("Niamey. I don't know much else about Niger.", NER_CAP, 'correct', False),
        ("Niamey, I'm fairly sure.", NER_CAP, 'correct', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Canberra, I believe.', AUS_CAP, 'correct', False),
        ('Canberra — not Sydney.', AUS_CAP, 'correct', False),
        ('Sydney.', AUS_CAP, 'incorrect', True),
        ('Sydney... actually, Canberra.', AUS_CAP, 'correct', False),
        ("Canberra. Actually, I'm sure of it.", AUS_CAP, 'correct', False),
        ("Canberra; I'm not certain, but that's my answer.", AUS_CAP, 'correct', False),
        ("Canberra? I'm not sure why people say Sydney.", AUS_CAP, 'correct', False),
        ('Tegucigalpa.', HND_CAP, 'correct', False),
        ('Tegucigalpa, if I remember right.', HND_CAP, 'correct', False),
        ('San Pedro Sula? No, Tegucigalpa.', HND_CAP, 'correct', False),
        ("I'm not sure, I'd rather not guess.", HND_CAP, 'refused', False),
        ("Niamey. Actually, I don't know its population.", NER_CAP, 'correct', False),
        ("Niamey? I'm not sure, but I'd say so.", NER_CAP, 'correct', False),
        ('Hmm, Niamey.', NER_CAP, 'correct', False),
        ("Zinder? Actually I don't know — Niamey, I think.", NER_CAP, 'correct', False),
    ],
    'a named candidate scratched': [
        ('Period 4. Let me recount: period 3.', FE_PER, 'incorrect', False),
        ('French. Scratch that: English and Irish.', IRL_LANG, 'correct', False),
        ('French — scratch that, English and Irish.', IRL_LANG, 'correct', False),
        ('English and Irish.', IRL_LANG, 'correct', False),
        ('English, Irish.', IRL_LANG, 'correct', False),
        ('Irish and English.', IRL_LANG, 'correct', False),
        ('English and French.', IRL_LANG, 'incorrect', False),
        ('French.', IRL_LANG, 'incorrect', False),
        ('English only.', IRL_LANG, 'correct', False),
        ('Irish (Gaeilge) and English.', IRL_LANG, 'correct', False),
        ('English and Irish; forget French.', IRL_LANG, 'incorrect', True),
        ('English and Irish, not French.', IRL_LANG, 'correct', False),
        ('Not French: English and Irish.', IRL_LANG, 'correct', False),
        ('French — no, English and Irish.', IRL_LANG, 'correct', False),
        ('English and Irish — sorry, I mean English and French.', IRL_LANG, 'incorrect', True),
        ('Scratch that.', IRL_LANG, 'incorrect', False),
        ('Period 4.', FE_PER, 'correct', False),
        ('Period 3.', FE_PER, 'incorrect', False),
        ('The fourth period.', FE_PER, 'correct', False),
        ('Period 4, let me check.', FE_PER, 'correct', False),
        ('Period 3 — no, period 4.', FE_PER, 'correct', False),
        ('Period 4 — no, period 3.', FE_PER, 'incorrect', False),
        ('Let me recount: period 4.', FE_PER, 'correct', False),
        ('Let me recount: period 3.', FE_PER, 'incorrect', False),
        ('Period 4. Let me recount the rows to be sure.', FE_PER, 'correct', False),
        ('Iron is in period 4.', FE_PER, 'correct', False),
        ("It's in period 4, group 8.", FE_PER, 'correct', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Sydney. Scratch Sydney: Canberra.', AUS_CAP, 'correct', False),
        ('Sydney — scratch that, Canberra.', AUS_CAP, 'correct', False),
    ],
    'a name with its former name': [
        ('Uhuru Peak (once called Kaiser-Wilhelm-Spitze).', TZA_HIGH, 'incorrect', True),
        ('Uhuru Peak — formerly Kaiser-Wilhelm-Spitze.', TZA_HIGH, 'incorrect', True),
        ('Kilimanjaro.', TZA_HIGH, 'correct', False),
        ('Kilimanjaro, formerly Kaiser-Wilhelm-Spitze.', TZA_HIGH, 'correct', False),
        ('Kilimanjaro (formerly Kaiser-Wilhelm-Spitze).', TZA_HIGH, 'correct', False),
        ('Mount Kilimanjaro.', TZA_HIGH, 'correct', False),
        ('Mount Meru.', TZA_HIGH, 'incorrect', True),
        ('Uhuru Peak.', TZA_HIGH, 'incorrect', True),
        ('Kaiser-Wilhelm-Spitze.', TZA_HIGH, 'incorrect', True),
        ('Uhuru Peak, the highest in Africa.', TZA_HIGH, 'incorrect', False),
        ('Kilimanjaro, about 5,895 m.', TZA_HIGH, 'correct', False),
        ('Mount Kenya.', TZA_HIGH, 'incorrect', False),
        ('Kilimanjaro, not Mount Meru.', TZA_HIGH, 'correct', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('Canberra, formerly Yass-Canberra.', AUS_CAP, 'correct', False),
        ('Sydney.', AUS_CAP, 'incorrect', True),
        ('Sydney, formerly the capital.', AUS_CAP, 'incorrect', False),
        ('Melbourne, once the capital.', AUS_CAP, 'incorrect', False),
        ('Canberra, previously Melbourne.', AUS_CAP, 'correct', False),
        ('Niamey.', NER_CAP, 'correct', False),
        ('Zinder, formerly the capital.', NER_CAP, 'incorrect', False),
        ('Niamey, formerly a small village.', NER_CAP, 'correct', False),
        ('Zinder.', NER_CAP, 'incorrect', True),
        ('Tegucigalpa.', HND_CAP, 'correct', False),
        ('Comayagua, formerly the capital.', HND_CAP, 'incorrect', False),
        ('Tegucigalpa, formerly Real de Minas.', HND_CAP, 'correct', False),
        ('Tegucigalpa and Comayagüela.', HND_CAP, 'incorrect', False),
        ('The Kibo summit.', TZA_HIGH, 'incorrect', True),
        ('Kibo.', TZA_HIGH, 'incorrect', True),
        ('Kilimanjaro, once known as Kibo.', TZA_HIGH, 'correct', False),
        ('Canberra (formerly Yass).', AUS_CAP, 'correct', False),
        ('Niamey, formerly a French post.', NER_CAP, 'correct', False),
    ],
    'a language joined by a letter': [
        ('العربية', EGY_LANG, 'correct', False),
        ('الإنجليزية', EGY_LANG, 'incorrect', True),
        ('Arabic.', EGY_LANG, 'correct', False),
        ('Arabic and English.', EGY_LANG, 'incorrect', False),
        ('Arabisch und Englisch.', EGY_LANG, 'incorrect', False),
        ('Arabisch.', EGY_LANG, 'correct', False),
        ('Árabe.', EGY_LANG, 'correct', False),
        ('Árabe e inglés.', EGY_LANG, 'incorrect', False),
        ("L'arabe.", EGY_LANG, 'incorrect', True),
        ("L'arabe et l'anglais.", EGY_LANG, 'incorrect', True),
        ('Арабский.', EGY_LANG, 'correct', False),
        ('Арабский и английский.', EGY_LANG, 'incorrect', False),
        ('English.', EGY_LANG, 'incorrect', False),
        ('Modern Standard Arabic.', EGY_LANG, 'correct', False),
        ('Egyptian Arabic.', EGY_LANG, 'correct', False),
        ('Arabic, with English widely used.', EGY_LANG, 'correct', False),
        ('English and Irish.', IRL_LANG, 'correct', False),
        ('Irish.', IRL_LANG, 'correct', False),
        ('Gaeilge agus Béarla.', IRL_LANG, 'correct', False),
        ('Béarla.', IRL_LANG, 'correct', False),
        ('Englisch und Irisch.', IRL_LANG, 'correct', False),
        ('Inglés e irlandés.', IRL_LANG, 'correct', False),
        ('Anglais et irlandais.', IRL_LANG, 'correct', False),
        ('Английский и ирландский.', IRL_LANG, 'correct', False),
        ('English, Irish and Scots.', IRL_LANG, 'incorrect', True),
        ('English and French.', IRL_LANG, 'incorrect', False),
        ('Irish, English.', IRL_LANG, 'correct', False),
        ('Irish Gaelic and English.', IRL_LANG, 'correct', False),
        ('English; Irish too.', IRL_LANG, 'correct', False),
        ('الإنجليزية والأيرلندية', IRL_LANG, 'correct', False),
        ('French.', IRL_LANG, 'incorrect', False),
    ],
    'a sign in compatibility form': [
        ('Rs', PAK_CUR, 'correct', True),
        ('Rs.', MUS_CUR, 'correct', True),
        ('PKR', PAK_CUR, 'correct', False),
        ('The Pakistani rupee.', PAK_CUR, 'correct', False),
        ('The rupee.', PAK_CUR, 'correct', False),
        ('₹', PAK_CUR, 'incorrect', False),
        ('$', PAK_CUR, 'incorrect', False),
        ('The Indian rupee.', PAK_CUR, 'incorrect', False),
        ('MUR', MUS_CUR, 'correct', False),
        ('The Mauritian rupee.', MUS_CUR, 'correct', False),
        ('€', MUS_CUR, 'incorrect', False),
        ('AED', ARE_CUR, 'correct', False),
        ('The dirham.', ARE_CUR, 'correct', False),
        ('The UAE dirham.', ARE_CUR, 'correct', False),
        ('Dh', ARE_CUR, 'incorrect', True),
        ('ر.س', ARE_CUR, 'incorrect', True),
        ('The Saudi riyal.', ARE_CUR, 'incorrect', False),
        ('XOF', SEN_CUR, 'correct', False),
        ('CFA franc.', SEN_CUR, 'incorrect', False),
        ('The West African CFA franc.', SEN_CUR, 'correct', False),
        ('The Central African CFA franc.', SEN_CUR, 'incorrect', False),
        ('F CFA', SEN_CUR, 'correct', False),
        ('€', SEN_CUR, 'incorrect', False),
        ('$', MEX_CUR, 'correct', True),
        ('Mex$', MEX_CUR, 'correct', False),
        ('MXN', MEX_CUR, 'correct', False),
        ('The peso.', MEX_CUR, 'correct', False),
        ('US$', MEX_CUR, 'incorrect', False),
        ('The Mexican peso.', MEX_CUR, 'correct', False),
        ('Rupees.', PAK_CUR, 'correct', False),
        ('The euro.', SEN_CUR, 'incorrect', False),
        ('Dirhams.', ARE_CUR, 'correct', False),
    ],
    'a source to consult': [
        ('Ram Chandra Poudel.', NPL_HOS, 'correct', False),
        ('Ram Chandra Poudel; you may want to consult the CIA World Factbook.', NPL_HOS, 'correct', False),
        ('Bidya Devi Bhandari.', NPL_HOS, 'incorrect', True),
        ("Bidya Devi Bhandari, but check the Nepali government's website.", NPL_HOS, 'incorrect', False),
        ('President Poudel.', NPL_HOS, 'correct', False),
        ("I don't know.", NPL_HOS, 'refused', False),
        ("I'm not sure; please check an official source.", NPL_HOS, 'refused', False),
        ("I can't say for certain.", NPL_HOS, 'refused', False),
        ("I'll hold off, though Poudel comes to mind.", NPL_HOS, 'correct', False),
        ("I'll hold off, though Sher Bahadur Deuba comes to mind.", NPL_HOS, 'incorrect', False),
        ("I can't be sure, but I think it's Ram Chandra Poudel.", NPL_HOS, 'correct', False),
        ("I can't be sure, but I think it's Bidya Devi Bhandari.", NPL_HOS, 'incorrect', False),
        ('Not sure — maybe Bhandari?', NPL_HOS, 'incorrect', False),
        ('The President of Nepal is Ram Chandra Poudel.', NPL_HOS, 'correct', False),
        ("Nepal's president is Ram Chandra Poudel.", NPL_HOS, 'correct', False),
        ("Nepal's head of state is the president, currently Ram Chandra Poudel.", NPL_HOS, 'correct', False),
        ("That's best checked in a current reference.", NPL_HOS, 'refused', False),
        ('José Jerí.', PER_HOS, 'correct', False),
        ('Dina Boluarte.', PER_HOS, 'incorrect', True),
        ('José Jerí, I believe.', PER_HOS, 'correct', False),
        ('Dina Boluarte, but please check a current source.', PER_HOS, 'incorrect', False),
        ("Peru's president changes often; I'd rather not name one.", PER_HOS, 'refused', False),
        ("I think it's Dina Boluarte, but please check.", PER_HOS, 'incorrect', False),
        ('As of my last update it was Dina Boluarte.', PER_HOS, 'incorrect', False),
        ('No idea.', PER_HOS, 'refused', False),
        ('José Jerí took over from Dina Boluarte.', PER_HOS, 'correct', False),
        ("I'm not certain — possibly Boluarte.", PER_HOS, 'incorrect', False),
        ("I'd rather not say; consult an atlas.", NPL_HOS, 'refused', False),
        ('Ram Chandra Poudel, per the CIA World Factbook.', NPL_HOS, 'correct', False),
        ('According to the CIA World Factbook, Ram Chandra Poudel.', NPL_HOS, 'correct', False),
        ('Sher Bahadur Deuba, according to the CIA World Factbook.', NPL_HOS, 'incorrect', False),
        ("I'm not sure; check the CIA World Factbook.", NPL_HOS, 'refused', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)
