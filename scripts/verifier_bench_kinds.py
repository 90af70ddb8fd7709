"""Write the labelled replies of issue #34's kinds into tests/data/verifier_bench.jsonl.

Each case below is a reply a person wrote to a real Wh question of the bundled country KG (the
question from the predicate's Wh template, the true answers with every name the KG has for them)
and the label a careful human judge gives it, decided by reading the reply, never by running the
verifier. Run from the repository root: ``python scripts/verifier_bench_kinds.py``; it replaces
the records whose id starts with "k" and keeps every other line as it is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one

from kglens_tui.bench.verifier_bench import KINDS  # noqa: E402
from kglens_tui.kg.bundled import ensure_kg  # noqa: E402
from kglens_tui.kg.graph import load_kg  # noqa: E402
from kglens_tui.store.connection import connect  # noqa: E402

DATA = ROOT / "tests" / "data" / "verifier_bench.jsonl"
C, W, R, U = "correct", "incorrect", "refused", "unparseable"
"""Labels: correct, wrong (incorrect), refused, unparseable."""
MEMBER_OF_LISTING = (
    "Which of these international organisations is Austria a member of: the United Nations, "
    "the European Union, the OECD, the European Economic Area, the Schengen Area, the euro "
    "area, the G7, the Council of Europe, the Asia-Pacific Economic Cooperation?"
)

# (kind, country ISO3, predicate, reply, label[, hedged][, note])
CASES: list[tuple] = [
    # right answer in another language or script
    ("language", "AUT", "capital", "Wien.", C),
    ("language", "RUS", "capital", "Москва", C),
    ("language", "JPN", "capital", "東京", C),
    ("language", "JPN", "capital", "Tōkyō.", C),
    ("language", "CZE", "capital", "Praha.", C),
    ("language", "DEU", "capital", "Берлин", C),
    ("language", "ITA", "capital", "Roma.", C),
    ("language", "POL", "capital", "Warszawa.", C),
    ("language", "GRC", "capital", "Αθήνα", C),
    ("language", "UKR", "capital", "Київ", C),
    ("language", "FIN", "capital", "Helsingfors.", C),
    ("language", "BEL", "capital", "Bruxelles.", C),
    ("language", "DNK", "capital", "København.", C),
    ("language", "PRT", "capital", "Lisboa.", C),
    ("language", "EGY", "capital", "القاهرة", C),
    ("language", "KOR", "capital", "서울", C),
    ("language", "ISR", "capital", "ירושלים", C),
    ("language", "SWE", "capital", "Estocolmo.", C),
    (
        "language",
        "CHN",
        "capital",
        "北京",
        C,
        False,
        "gap: Beijing has no tz zone, so CLDR gives no name of it",
    ),
    ("language", "ESP", "official_language", "Español.", C),
    ("language", "DEU", "official_language", "Deutsch.", C),
    ("language", "JPN", "official_language", "日本語", C),
    ("language", "RUS", "official_language", "Русский язык.", C),
    ("language", "GRC", "official_language", "Ελληνικά.", C),
    ("language", "NLD", "official_language", "Nederlands.", C),
    ("language", "FIN", "official_language", "Suomi and svenska.", C),
    ("language", "SWE", "currency", "Svensk krona.", C),
    ("language", "JPN", "currency", "日本円", C),
    (
        "language",
        "AUT",
        "shares_border_with",
        "Deutschland, Schweiz, Italien, Tschechien, Ungarn, Slowakei, Slowenien und Liechtenstein.",
        C,
    ),
    ("language", "CZE", "shares_border_with", "Německo, Polsko, Rakousko a Slovensko.", C),
    ("language", "FRA", "capital", "Londres.", W),
    ("language", "ITA", "capital", "Mailand.", W),
    ("language", "DEU", "capital", "München.", W),
    # right old or alternative name not in the aliases
    ("old-name", "UKR", "capital", "Kiev.", C),
    ("old-name", "UKR", "capital", "The capital of Ukraine is Kiev.", C),
    (
        "old-name",
        "CHN",
        "capital",
        "Peking.",
        C,
        False,
        "gap: no source (CLDR, pycountry, tz) gives Beijing's old name",
    ),
    (
        "old-name",
        "CHE",
        "capital",
        "Berne.",
        C,
        False,
        "gap: no source gives Bern's French name (no tz zone)",
    ),
    ("old-name", "USA", "highest_point", "Denali.", C, False, "gap: no source names mountains"),
    (
        "old-name",
        "ESP",
        "official_language",
        "Castilian.",
        C,
        False,
        "gap: CLDR and pycountry have no 'Castilian'",
    ),
    ("old-name", "MNG", "capital", "Ulaanbaatar.", C),
    ("old-name", "VNM", "capital", "Hà Nội.", C),
    ("old-name", "IRN", "capital", "Teheran.", C),
    ("old-name", "MMR", "capital", "Rangoon.", W),
    (
        "old-name",
        "COG",
        "shares_border_with",
        "Zaire, Gabon, Cameroon, the Central African Republic and Angola.",
        C,
    ),
    ("old-name", "ZMB", "shares_border_with", "Zaire.", C),
    ("old-name", "GRC", "shares_border_with", "Albania, Macedonia, Bulgaria and Turkey.", C),
    ("old-name", "AUT", "shares_border_with", "the Czech Republic.", C),
    ("old-name", "DEU", "shares_border_with", "the Czech Republic, Poland and Austria.", C),
    ("old-name", "SVK", "shares_border_with", "the Czech Republic.", C),
    (
        "old-name",
        "IND",
        "independent_from",
        "the United Kingdom of Great Britain and Northern Ireland.",
        C,
    ),
    ("old-name", "UKR", "official_language", "Ukrainian.", C),
    ("old-name", "KHM", "shares_border_with", "Kampuchea.", W, False, "Cambodia is the subject"),
    (
        "old-name",
        "THA",
        "shares_border_with",
        "Kampuchea, Laos, Malaysia and Myanmar.",
        C,
        False,
        "gap: no source has 'Kampuchea'",
    ),
    ("old-name", "MMR", "shares_border_with", "Siam.", C, False, "gap: no source has 'Siam'"),
    ("old-name", "UKR", "capital", "Kharkiv.", W),
    ("old-name", "CZE", "capital", "Prag.", C),
    ("old-name", "BLR", "capital", "Mensk.", C, False, "CLDR's Belarusian city name"),
    ("old-name", "KAZ", "capital", "Almaty.", W),
    ("old-name", "TUR", "capital", "Constantinople.", W),
    # currency by symbol or code, time zones
    ("symbol", "AUT", "currency", "€", C),
    ("symbol", "AUT", "currency", "EUR.", C),
    ("symbol", "FRA", "currency", "Euros.", C),
    ("symbol", "USA", "currency", "US$", C),
    ("symbol", "USA", "currency", "The $.", C),
    ("symbol", "USA", "currency", "USD.", C),
    ("symbol", "POL", "currency", "zł", C),
    ("symbol", "POL", "currency", "The złoty (PLN).", C),
    ("symbol", "ISR", "currency", "NIS.", C),
    ("symbol", "ISR", "currency", "₪", C),
    ("symbol", "ISR", "currency", "Shekels.", C),
    ("symbol", "SWE", "currency", "Kronor.", C),
    ("symbol", "SWE", "currency", "SEK.", C),
    ("symbol", "GBR", "currency", "£", C),
    ("symbol", "GBR", "currency", "Pounds sterling.", C),
    ("symbol", "JPN", "currency", "¥", C),
    ("symbol", "IND", "currency", "₹ (rupees).", C),
    ("symbol", "RUS", "currency", "₽", C),
    ("symbol", "KOR", "currency", "₩", C),
    ("symbol", "THA", "currency", "฿", C),
    ("symbol", "SWE", "currency", "€", W),
    ("symbol", "CHE", "currency", "€", W),
    ("symbol", "GBR", "currency", "EUR.", W),
    ("symbol", "DNK", "currency", "Euros.", W),
    ("symbol", "IND", "time_zone", "UTC+5.5", C),
    ("symbol", "IND", "time_zone", "India Standard Time.", C),
    ("symbol", "DEU", "time_zone", "CET.", C),
    ("symbol", "DEU", "time_zone", "Central European Time.", C),
    ("symbol", "FRA", "time_zone", "CET (UTC+1).", C),
    ("symbol", "NPL", "time_zone", "UTC+5.75", C),
    ("symbol", "GBR", "time_zone", "Greenwich Mean Time.", C),
    ("symbol", "JPN", "time_zone", "JST.", C),
    ("symbol", "JPN", "time_zone", "Japan Standard Time.", C),
    ("symbol", "FIN", "time_zone", "EET.", C),
    ("symbol", "DEU", "time_zone", "EET.", W),
    ("symbol", "NPL", "time_zone", "UTC+5.5", W),
    ("symbol", "JPN", "time_zone", "UTC+8.", W),
    # retractions and corrections: the answer the reply ends on
    ("retraction", "NGA", "capital", "Abuja... sorry, I mean Lagos.", W),
    ("retraction", "NGA", "capital", "Lagos. Sorry, I mean Abuja.", C),
    ("retraction", "AUS", "capital", "Sydney. Actually, it's Canberra.", C),
    ("retraction", "AUS", "capital", "Canberra. No wait, it is Sydney.", W),
    (
        "retraction",
        "AUS",
        "capital",
        "The capital is often assumed to be Sydney, but it is Canberra.",
        C,
    ),
    (
        "retraction",
        "TUR",
        "capital",
        "Many people think it is Istanbul, but it is actually Ankara.",
        C,
    ),
    ("retraction", "CHE", "capital", "Zurich. Correction: Bern.", C),
    ("retraction", "CHE", "capital", "Bern... actually, I think it is Geneva.", W, True),
    ("retraction", "BRA", "capital", "Rio de Janeiro, sorry, I meant Brasília.", C),
    ("retraction", "BRA", "capital", "Brasília, sorry, I mean São Paulo.", W),
    ("retraction", "CAN", "capital", "Toronto. Scratch that: Ottawa.", C),
    ("retraction", "MAR", "capital", "Casablanca. My mistake, it's Rabat.", C),
    ("retraction", "PAK", "capital", "Karachi; in fact, the capital is Islamabad.", C),
    ("retraction", "DEU", "currency", "The Deutsche Mark. Sorry, I mean the euro.", C),
    ("retraction", "DEU", "currency", "The euro; actually, the Deutsche Mark.", W),
    ("retraction", "FRA", "head_of_state", "Macron? Sorry, I mean Marine Le Pen.", W),
    ("retraction", "ESP", "official_language", "Catalan. Sorry, I mean Portuguese.", W),
    ("retraction", "ESP", "official_language", "Portuguese. Sorry, I mean Spanish.", C),
    ("retraction", "NGA", "time_zone", "UTC+0, or rather UTC+1.", C),
    ("retraction", "IND", "calling_code", "+92, sorry, I mean +91.", C),
    ("retraction", "IND", "calling_code", "+91. Sorry, I meant +92.", W),
    ("retraction", "JPN", "capital", "Kyoto. Actually, Tokyo.", C),
    ("retraction", "VNM", "capital", "Ho Chi Minh City. Actually, it's Hanoi.", C),
    ("retraction", "VNM", "capital", "Hanoi. Actually, Ho Chi Minh City is the largest city.", C),
    ("retraction", "AUS", "capital", "Canberra is actually the capital, not Sydney.", C),
    ("retraction", "NGA", "capital", "Abuja. Sorry, I mean Abuja, in the centre.", C),
    ("retraction", "KEN", "capital", "Mombasa... no wait, Nairobi.", C),
    # question echoed back, no answer
    ("echo", "DJI", "capital", "The capital of Djibouti.", W),
    ("echo", "DJI", "capital", "Djibouti.", C),
    ("echo", "DJI", "capital", "The capital of Djibouti is Djibouti City.", C),
    ("echo", "DJI", "capital", "What is the capital of Djibouti?", W),
    ("echo", "DJI", "capital", "Djibouti's capital is Djibouti.", C),
    ("echo", "DJI", "capital", "Djibouti's capital.", W),
    ("echo", "MCO", "capital", "Monaco.", C),
    ("echo", "MCO", "capital", "The capital of Monaco is Monaco.", C),
    ("echo", "MCO", "capital", "Monaco's capital.", W),
    ("echo", "MCO", "capital", "The capital of Monaco is a small city on the coast.", W),
    ("echo", "LUX", "capital", "Luxembourg City.", C),
    ("echo", "LUX", "capital", "The capital of Luxembourg.", W),
    ("echo", "SGP", "capital", "Singapore.", C),
    ("echo", "SGP", "capital", "The capital of Singapore is Singapore.", C),
    ("echo", "SGP", "capital", "What is the capital of Singapore?", W),
    ("echo", "KWT", "capital", "Kuwait City.", C),
    ("echo", "KWT", "capital", "The capital of Kuwait.", W),
    ("echo", "MEX", "capital", "The capital of Mexico.", W),
    ("echo", "GTM", "capital", "Guatemala City.", C),
    ("echo", "GTM", "capital", "The capital of Guatemala.", W),
    ("echo", "PAN", "capital", "The capital of Panama.", W),
    ("echo", "SMR", "capital", "San Marino.", C),
    ("echo", "SMR", "capital", "The capital of San Marino.", W),
    ("echo", "VAT", "capital", "Vatican City.", C),
    ("echo", "VAT", "capital", "The capital of Vatican City.", W),
    ("echo", "TUN", "capital", "The capital of Tunisia.", W),
    (
        "echo",
        "AUT",
        "member_of",
        "The United Nations, the European Union, the OECD, the European "
        "Economic Area, the Schengen Area, the euro area, the G7, the Council of Europe, the "
        "Asia-Pacific Economic Cooperation.",
        W,
        False,
        "the question's list read back",
    ),
    (
        "echo",
        "AUT",
        "member_of",
        "Austria is a member of the United Nations and the European Union.",
        C,
    ),
    # partial person names
    ("person", "FRA", "head_of_state", "Macron.", C),
    ("person", "FRA", "head_of_state", "President Macron.", C),
    ("person", "FRA", "head_of_state", "Brigitte Macron.", W),
    ("person", "SAU", "head_of_state", "King Salman.", C),
    ("person", "SAU", "head_of_state", "Mohammed bin Salman.", W),
    ("person", "SAU", "head_of_state", "Muhammad bin Salman Al Saud.", W),
    ("person", "NLD", "head_of_state", "Willem-Alexander.", C),
    ("person", "NLD", "head_of_state", "Willem-Alexander of the Netherlands.", C),
    ("person", "GBR", "head_of_state", "King Charles.", C),
    ("person", "GBR", "head_of_state", "Prince William.", W),
    ("person", "GBR", "head_of_state", "Queen Elizabeth II.", W),
    ("person", "DEU", "head_of_government", "Merz.", C),
    ("person", "DEU", "head_of_government", "Chancellor Merz.", C),
    ("person", "DEU", "head_of_government", "Angela Merkel.", W),
    ("person", "DEU", "head_of_state", "Steinmeier.", C),
    ("person", "ITA", "head_of_government", "Meloni.", C),
    ("person", "USA", "head_of_state", "Trump.", C),
    ("person", "USA", "head_of_state", "Donald Trump.", C),
    ("person", "USA", "head_of_state", "President Trump.", C),
    ("person", "USA", "head_of_state", "Joe Biden.", W),
    ("person", "ESP", "head_of_state", "King Felipe.", C),
    ("person", "ESP", "head_of_government", "Pedro Sánchez.", C),
    ("person", "RUS", "head_of_state", "Putin.", C),
    ("person", "RUS", "head_of_state", "Vladimir Putin.", C),
    ("person", "CHN", "head_of_state", "President Xi.", C),
    ("person", "TUR", "head_of_state", "Erdoğan.", C),
    ("person", "BRA", "head_of_state", "Lula.", C),
    ("person", "IND", "head_of_government", "Prime Minister Modi.", C),
    ("person", "CAN", "head_of_government", "Carney.", C),
    ("person", "CAN", "head_of_government", "Justin Trudeau.", W),
    ("person", "JPN", "head_of_state", "Naruhito.", C),
    ("person", "AUS", "head_of_government", "Albanese.", C),
    ("person", "GBR", "head_of_government", "Starmer.", C),
    ("person", "GBR", "head_of_government", "Sir Keir Starmer.", C),
    # refusals without the usual keywords
    ("refusal", "AUS", "capital", "That information is not available to me.", R),
    ("refusal", "NER", "head_of_state", "It is unknown.", R),
    ("refusal", "TLS", "highest_point", "This is not publicly known.", R),
    ("refusal", "BTN", "head_of_government", "I lack the data to answer that.", R),
    ("refusal", "NPL", "capital", "There's no way for me to tell.", R),
    ("refusal", "LAO", "currency", "The answer escapes me.", R),
    ("refusal", "MNG", "head_of_state", "That's beyond what I can answer.", R),
    ("refusal", "BRN", "highest_point", "I would need to check a reliable source.", R),
    ("refusal", "CPV", "head_of_government", "Hard to say.", R),
    ("refusal", "KHM", "head_of_state", "I'm afraid that's not something I can answer.", R),
    ("refusal", "OMN", "highest_point", "That is not something I know.", R),
    ("refusal", "MKD", "head_of_government", "I have no access to that information.", R),
    ("refusal", "YEM", "head_of_state", "The details are undisclosed.", R),
    ("refusal", "BHR", "head_of_government", "No data.", R),
    ("refusal", "QAT", "highest_point", "Unknown.", R),
    ("refusal", "AUS", "capital", "It is not Sydney, but I can't say which city it is.", R),
    ("refusal", "AUS", "capital", "It is a city in Australia.", W),
    ("refusal", "AUS", "capital", "The capital is a large city.", W),
    ("refusal", "FRA", "capital", "France is a country in Europe.", W),
    ("refusal", "AUS", "capital", "Sydney, though I am not sure.", W, True),
    ("refusal", "AUS", "capital", "I don't know, maybe Sydney?", W, True),
    (
        "refusal",
        "AUS",
        "capital",
        "That information is not available to me, but I think it is Melbourne.",
        W,
        True,
    ),
    (
        "refusal",
        "AUS",
        "capital",
        "That information is not available to me, but I think it is Canberra.",
        C,
        True,
    ),
    ("refusal", "NER", "head_of_state", "The head of state is elected by the people.", W),
    ("refusal", "TLS", "highest_point", "The highest point is a mountain.", W),
    # long explanations naming other entities in passing
    (
        "passing",
        "AUS",
        "capital",
        "Canberra, which lies between Sydney and Melbourne, is the capital.",
        C,
    ),
    ("passing", "AUS", "capital", "The capital is Canberra. Sydney is the largest city.", C),
    ("passing", "NZL", "capital", "Wellington, across the Tasman Sea from Canberra.", C),
    ("passing", "AUT", "capital", "Vienna, which is near Bratislava.", C),
    ("passing", "SVK", "capital", "Bratislava, close to Vienna.", C),
    ("passing", "MYS", "capital", "Kuala Lumpur, a few hours by road from Singapore.", C),
    (
        "passing",
        "CHE",
        "official_language",
        "German, French, Italian and Romansh, spoken alongside English in business.",
        C,
    ),
    ("passing", "KWT", "official_language", "Arabic. English is also widely spoken.", C),
    (
        "passing",
        "IND",
        "official_language",
        "Hindi and English, with over twenty other "
        "languages such as Bengali and Tamil recognised by the constitution.",
        C,
    ),
    ("passing", "DEU", "currency", "The euro, which replaced the Deutsche Mark in 2002.", C),
    ("passing", "FRA", "currency", "The euro, introduced in place of the French franc.", C),
    ("passing", "AUT", "calling_code", "+43, like Germany's +49.", C),
    (
        "passing",
        "CAN",
        "head_of_state",
        "Charles III, who also reigns over the United Kingdom and Australia.",
        C,
    ),
    (
        "passing",
        "NOR",
        "currency",
        "The Norwegian krone, which is distinct from the Swedish krona.",
        C,
    ),
    (
        "passing",
        "SVN",
        "capital",
        "Ljubljana. Many confuse Slovenia with Slovakia, whose capital is Bratislava.",
        C,
    ),
    ("passing", "BEL", "capital", "Brussels, about two hours by train from Amsterdam.", C),
    ("passing", "PRT", "capital", "Lisbon. It is west of Madrid.", C),
    ("passing", "ARG", "capital", "Buenos Aires, across the river from Montevideo.", C),
    ("passing", "URY", "capital", "Montevideo, across the Río de la Plata from Buenos Aires.", C),
    ("passing", "KEN", "capital", "Nairobi. Kampala and Dodoma are capitals of its neighbours.", C),
    ("passing", "AUS", "capital", "Canberra, and also Sydney.", W),
    ("passing", "AUS", "capital", "Sydney, near Canberra.", W),
    ("passing", "KWT", "official_language", "Arabic and English.", W),
    ("passing", "DEU", "currency", "The Deutsche Mark, which replaced the Reichsmark.", W),
    ("passing", "EGY", "capital", "Alexandria, not far from Cairo.", W),
    # lists of candidates
    ("list", "AUS", "capital", "Sydney, Melbourne or Canberra.", W),
    ("list", "AUS", "capital", "It could be Canberra or Sydney.", W, True),
    ("list", "AUS", "capital", "Possible answers:\n- Canberra\n- Sydney", W),
    ("list", "AUS", "capital", "1. Canberra\n2. Sydney\n3. Melbourne", W),
    ("list", "CHE", "official_language", "German, French, Italian and Romansh.", C),
    ("list", "BEL", "official_language", "Dutch, French and German.", C),
    ("list", "ESP", "official_language", "Spanish, Catalan, Basque and Galician.", C),
    ("list", "ESP", "official_language", "Spanish and Portuguese.", W),
    ("list", "AUT", "shares_border_with", "Germany, Italy, Switzerland and France.", W),
    (
        "list",
        "AUT",
        "shares_border_with",
        "Germany, Italy, Switzerland, Liechtenstein, Czechia, Slovakia, Hungary and Slovenia.",
        C,
    ),
    ("list", "CZE", "shares_border_with", "Germany, Poland, Austria and Slovakia.", C),
    ("list", "CZE", "shares_border_with", "Germany, Poland and Hungary.", W),
    ("list", "IND", "official_language", "Hindi, English and Urdu.", W),
    ("list", "NOR", "official_language", "Norwegian and Sami.", C),
    ("list", "FIN", "official_language", "Finnish and Swedish.", C),
    ("list", "FIN", "official_language", "Finnish, Swedish and Russian.", W),
    ("list", "LUX", "official_language", "Luxembourgish, French and German.", C),
    ("list", "TUR", "continent", "Europe and Asia.", C),
    ("list", "EGY", "continent", "Africa or Asia.", W),
    ("list", "JPN", "member_of", "The United Nations, the G7, the OECD and APEC.", C),
    ("list", "CHE", "member_of", "The UN, the EU and the Council of Europe.", W),
    ("list", "USA", "time_zone", "UTC-5, UTC-6, UTC-7 and UTC-8.", C),
    ("list", "USA", "time_zone", "UTC-5, UTC-6 and UTC+1.", W),
    ("list", "GBR", "emergency_number", "999 and 112.", C),
    ("list", "GBR", "emergency_number", "999, 112 or 911.", W),
    (
        "list",
        "FRA",
        "capital",
        "Paris, Lyon or Marseille.",
        W,
        False,
        "three candidates offered: no answer",
    ),
    # numbers in other formats
    ("number", "GBR", "calling_code", "+44", C),
    ("number", "GBR", "calling_code", "0044", C),
    ("number", "GBR", "calling_code", "44.", C),
    ("number", "GBR", "calling_code", "+44 (0)20 for London.", C),
    ("number", "ATG", "calling_code", "+1-268", C),
    ("number", "ATG", "calling_code", "1-268.", C),
    ("number", "SWZ", "calling_code", "+1-268", W),
    ("number", "SWZ", "calling_code", "+268", C),
    ("number", "SWZ", "calling_code", "00268.", C),
    ("number", "USA", "calling_code", "+1", C),
    ("number", "USA", "calling_code", "001.", C),
    ("number", "IND", "calling_code", "+ 91", C),
    ("number", "IND", "calling_code", "0091.", C),
    ("number", "IND", "calling_code", "+92", W),
    ("number", "IND", "calling_code", "0092.", W),
    ("number", "EGY", "calling_code", "+20", C),
    ("number", "EGY", "calling_code", "+2", W),
    ("number", "AUS", "emergency_number", "Triple zero (000).", C),
    ("number", "USA", "emergency_number", "9-1-1", C),
    ("number", "USA", "emergency_number", "911.", C),
    ("number", "DEU", "emergency_number", "1-1-2", C),
    ("number", "CAN", "time_zone", "UTC−3:30", C),
    ("number", "IND", "time_zone", "UTC +5:30", C),
    ("number", "IND", "time_zone", "GMT+05:30", C),
    ("number", "NPL", "time_zone", "UTC+05:45", C),
    ("number", "IND", "time_zone", "UTC+5", W),
    # near misses, empty, wrong subject, diacritics and punctuation
    ("near-miss", "NER", "capital", "Abuja.", W),
    ("near-miss", "NGA", "capital", "Niamey.", W),
    ("near-miss", "DEU", "shares_border_with", "Austria.", C),
    ("near-miss", "DEU", "shares_border_with", "Australia.", W),
    ("near-miss", "HUN", "shares_border_with", "Australia and Slovakia.", W),
    ("near-miss", "DZA", "shares_border_with", "Niger.", C),
    ("near-miss", "DZA", "shares_border_with", "Nigeria.", W),
    ("near-miss", "CMR", "shares_border_with", "Niger.", W),
    ("near-miss", "CMR", "shares_border_with", "Nigeria.", C),
    ("near-miss", "AUS", "capital", "", U),
    ("near-miss", "AUS", "capital", "   ", U),
    ("near-miss", "FRA", "capital", "The capital of Germany is Berlin.", W),
    ("near-miss", "JPN", "capital", "Seoul is the capital of South Korea.", W),
    ("near-miss", "AUS", "capital", "Wellington (the capital of New Zealand).", W),
    ("near-miss", "BRA", "capital", "Brasilia.", C),
    ("near-miss", "COL", "capital", "Bogota.", C),
    ("near-miss", "PRY", "capital", "Asuncion.", C),
    ("near-miss", "ISL", "capital", "Reykjavík.", C),
    ("near-miss", "ROU", "head_of_state", "Nicusor Dan.", C),
    ("near-miss", "USA", "capital", "Washington DC.", C),
    ("near-miss", "USA", "capital", "Washington, D.C.", C),
    ("near-miss", "USA", "capital", "Washington D.C.", C),
    ("near-miss", "ATG", "capital", "St John's.", C),
    ("near-miss", "ATG", "capital", "St. John's.", C),
    ("near-miss", "SVN", "capital", "Bratislava.", W),
    ("near-miss", "SVK", "capital", "Ljubljana.", W),
    ("near-miss", "IRQ", "capital", "Tehran.", W),
    ("near-miss", "COD", "capital", "Brazzaville.", W),
    ("near-miss", "COG", "capital", "Kinshasa.", W),
    ("near-miss", "SWE", "currency", "The Norwegian krone.", W),
    ("near-miss", "NOR", "currency", "The Swedish krona.", W),
    ("near-miss", "NOR", "currency", "Krone.", C),
    ("near-miss", "DNK", "currency", "Danish krone.", C),
    ("near-miss", "DNK", "currency", "Norwegian krone.", W),
    ("near-miss", "AUT", "official_language", "Austrian German.", C),
    ("near-miss", "DNK", "capital", "Kobenhavn.", C),
    ("near-miss", "POL", "currency", "Zloty.", C),
]


def main() -> None:
    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    templates = {
        json.loads(line)["id"]: json.loads(line)["templates"]["wh"]
        for line in (
            Path(__file__).resolve().parents[1]
            / "kglens_tui"
            / "kg"
            / "data"
            / "country"
            / "predicates.jsonl"
        ).open(encoding="utf-8")
    }
    records = []
    for n, case in enumerate(CASES, 1):
        kind, iso3, predicate, reply, label, *rest = case
        hedged = bool(rest[0]) if rest else False
        note = rest[1] if len(rest) > 1 else ""
        subject = kg.node(f"country:{iso3}")
        p = kg.pred_keys.index(predicate)
        objects = kg.true_objects(subject, p)
        if not len(objects):
            raise SystemExit(f"{iso3} has no {predicate}")
        question = templates[predicate].format(subject=kg.labels[subject])
        if kind == "echo" and predicate == "member_of" and "United Nations" in reply[:20]:
            question = MEMBER_OF_LISTING
        record = {
            "id": f"k{n:03d}",
            "source": f"hand-written (issue 34: {KINDS[kind]})",
            "kind": kind,
            "kg": "country",
            "predicate": predicate,
            "object_type": kg.types[int(objects[0])],
            "qtype": "wh",
            "question": question,
            "expected": "",
            "answers": [list(kg.names(int(o))) for o in objects],
            "reply": reply,
            "label": label,
            "hedged": hedged,
        }
        if note.startswith("gap: "):
            record["kg_gap"] = note.removeprefix("gap: ")
        elif note:
            record["note"] = note
        records.append(json.dumps(record, ensure_ascii=False))
    kept = [
        line
        for line in DATA.read_text(encoding="utf-8").splitlines()
        if line.strip() and not json.loads(line)["id"].startswith("k")
    ]
    DATA.write_text("\n".join([*kept, *records]) + "\n", encoding="utf-8")
    print(f"{len(records)} cases of {len(KINDS)} kinds written to {DATA}")


if __name__ == "__main__":
    main()
