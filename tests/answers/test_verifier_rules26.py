"""Rules 26 of the Wh verifier: readings a careful person applies that rules 25 lacked, and
uncertain where the rules cannot decide. Every reply here was written for these tests (none is
taken from a labelled set), asked as a run asks it of the bundled KGs; per rule, replies whose
verdict rules 26 changes and at least thirty ordinary replies, right and wrong, that keep the
verdict and certainty they had under rules 25."""

from __future__ import annotations

from verdict_support import round_tests

from kglens_tui.answers.correction_words import UNTRANSLITERATED
from kglens_tui.answers.corrections import left_undecided
from kglens_tui.answers.mentions import Mention, tokenize
from kglens_tui.answers.passing import answered_aside
from kglens_tui.answers.places import another_countrys_code, formal_name_core
from kglens_tui.answers.reply_forms import pearson_reading, transliterated, valence_reading
from kglens_tui.answers.words import subject_plurals
from kglens_tui.kg.answer_names import AnswerNames

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
EMERGENCY = ("country", "emergency_number", "emergency_number")
DISCOVERER = ("elements", "discovered_by", "person")
LANGUAGES = ("country", "official_language", "language")
LOCATED = ("places", "located_in", "place")
AUS = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
TUR = ("What is the capital of Turkey?", ("Ankara",), CAPITAL)
BOL = ("What is the capital of Bolivia?", ("Sucre",), CAPITAL)
CHE = ("What is the capital of Switzerland?", ("Bern",), CAPITAL)
UKR = ("What is the capital of Ukraine?", ("Kyiv",), CAPITAL)
RUS = ("What is the capital of Russia?", ("Moscow",), CAPITAL)
TZA = ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL)
CAN = ("What is the capital of Canada?", ("Ottawa",), CAPITAL)
NGA = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
MMR = ("What is the capital of Myanmar?", ("Naypyidaw",), CAPITAL)
VN_MONEY = (
    "What currency is used in Vietnam?",
    (("Vietnamese Dong", "VND", "Vietnamese đồng"),),
    CURRENCY,
)
CAN_MONEY = ("What currency is used in Canada?", (("Canadian Dollar", "CAD"),), CURRENCY)
ECU_MONEY = (
    "What currency is used in Ecuador?",
    (("US Dollar", "USD", "United States dollar"),),
    CURRENCY,
)
JP_MONEY = ("What currency is used in Japan?", (("Japanese Yen", "JPY"),), CURRENCY)
UK_SOS = ("What are the emergency phone numbers in United Kingdom?", ("112", "999"), EMERGENCY)
AUS_SOS = ("What are the emergency phone numbers in Australia?", ("000", "112"), EMERGENCY)
LITHIUM = ("Who discovered Lithium?", ("Johann Arfwedson",), DISCOVERER)
OXYGEN = ("Who discovered Oxygen?", (("Carl Wilhelm Scheele",), ("Joseph Priestley",)), DISCOVERER)
HEMPHILL = ("Where is Hemphill County located?", ("Texas",), LOCATED)

PRODUCERS = ("elements", "top_producer", "country")
STRUCTURE = ("elements", "crystal_structure", "crystal_structure")
PERU = ("What is the capital of Peru?", ("Lima",), CAPITAL)
LESOTHO_LANGS = (
    "What are the official languages of Lesotho?",
    ("English", ("Sotho", "Southern Sotho", "Sesotho")),
    LANGUAGES,
)
CANADA_LANGS = ("What are the official languages of Canada?", ("English", "French"), LANGUAGES)
CADMIUM = (
    "Which countries are the three largest producers of Cadmium?",
    ("China", "Japan", ("South Korea", "Republic of Korea")),
    PRODUCERS,
)
PLATINUM = (
    "Which countries are the three largest producers of Platinum?",
    (("South Africa",), ("Russia",), ("Zimbabwe",)),
    PRODUCERS,
)
MAGNESIUM = (
    "What is the crystal structure of Magnesium?",
    (("hexagonal", "hexagonal close-packed", "hcp"),),
    STRUCTURE,
)
COPPER = (
    "What is the crystal structure of Copper?",
    (("face-centred cubic", "face-centered cubic", "fcc"),),
    STRUCTURE,
)
IRON = (
    "What is the crystal structure of Iron?",
    (("body-centred cubic", "body-centered cubic", "bcc"),),
    STRUCTURE,
)
MWANZA = (
    "Where is Mwanza, Tanzania located?",
    (("Tanzania", "United Republic of Tanzania"),),
    LOCATED,
)

DISCOVERED = ("elements", "discovery_year", "year")
SINGAPORE_LANGS = (
    "What are the official languages of Singapore?",
    ("English", ("Malay", "Melayu"), "Tamil", "Chinese"),
    LANGUAGES,
)
SWISS_LANGS = (
    "What are the official languages of Switzerland?",
    ("German", "French", "Italian", "Romansh"),
    LANGUAGES,
)
INDIA_LANGS = ("What are the official languages of India?", ("Hindi", "English"), LANGUAGES)
MIYAZAKI = ("Where is Miyazaki located?", (("Japan", "Nippon", "Nihon"),), LOCATED)
NEON_YEAR = ("In what year was Neon discovered?", ("1898",), DISCOVERED)

OXIDATION = ("elements", "oxidation_state", "oxidation_state")
CALLING = ("country", "calling_code", "calling_code")
IRON_STATES = ("What are the common oxidation states of Iron?", ("+2", "+3"), OXIDATION)
COPPER_STATES = ("What are the common oxidation states of Copper?", ("+2",), OXIDATION)
TIN_STATES = ("What are the common oxidation states of Tin?", ("+2", "+4", "-4"), OXIDATION)
MERCURY_STATES = ("What are the common oxidation states of Mercury?", ("+1", "+2"), OXIDATION)
CHINA_SOS = ("What are the emergency phone numbers in China?", ("110", "119", "120"), EMERGENCY)
CHINA_CODE = ("What is the international calling code of China?", (("+86", "0086"),), CALLING)
HOLMIUM = ("Who discovered Holmium?", ("Jacques-Louis Soret",), DISCOVERER)
KENT = ("Where is Kent County, Michigan located?", ("Michigan",), LOCATED)
ORANGE = ("Where is Orange County, California located?", ("California",), LOCATED)


# Replies whose verdict or certainty rules 26 changes (the comment: what rules 25 gave)
CHANGED = [
    ("Ankara. Hold on, Istanbul.", TUR, "incorrect", True),  # correct
    ("Ankara. Let's say Istanbul.", TUR, "incorrect", True),  # correct
    ("Istanbul. Let's say Ankara.", TUR, "correct", False),  # incorrect
    ("Sucre or La Paz — I'd go with La Paz in the end.", BOL, "incorrect", True),  # incorrect
    ("Sucre, La Paz — I'll go with La Paz after all.", BOL, "incorrect", True),  # correct
    ("Bern. EDIT: actually Zürich, the largest city.", CHE, "incorrect", True),  # correct
    ("Canberra. Edit: Sydney, the largest city.", AUS, "incorrect", True),  # correct
    ("Đồng... perdón, quise decir el riel.", VN_MONEY, "incorrect", False),  # correct
    ("Đồng... je voulais dire le riel.", VN_MONEY, "incorrect", False),  # correct
    ("The yen. I meant the won.", JP_MONEY, "incorrect", False),  # correct
    ("Київ, ой, то есть Харків.", UKR, "incorrect", True),  # correct
    ("Москва, то есть Петербург.", RUS, "incorrect", True),  # correct
    ("The Canadian dollar (edit: I briefly typed USD above, ignore that).", CAN_MONEY, "correct", False),  # incorrect
    ("Treble nine.", UK_SOS, "correct", False),  # incorrect
    ("Texas, along the Oklahoma line.", HEMPHILL, "correct", False),  # incorrect
    ("Texas, along the New Mexico border.", HEMPHILL, "correct", False),  # incorrect
    ("The sucre, though US dollars circulate widely.", ECU_MONEY, "incorrect", True),  # correct
    ("Berzelius, in whose lab Arfwedson was a student.", LITHIUM, "incorrect", True),  # correct
    ("Sydney is the capital; Canberra is just where parliament sits.", AUS, "incorrect", True),  # correct
    ("Dar es Salaam — Dodoma is the capital in name only.", TZA, "incorrect", True),  # correct
    ("CN, JP, KP.", CADMIUM, "incorrect", False),  # correct
    ("hP2.", MAGNESIUM, "correct", False),  # incorrect
    ("hP2 (Pearson symbol).", MAGNESIUM, "correct", False),  # incorrect
    ("cF4", COPPER, "correct", False),  # incorrect
    ("cI2.", IRON, "correct", False),  # incorrect
    ("Pearson symbol cF4.", COPPER, "correct", False),  # incorrect
    ("Tanganyika.", MWANZA, "correct", True),  # incorrect
    ("Cusco — no, Lima. Hmm, or was it Arequipa? I really can't say.", PERU, "refused", True),  # incorrect
    ("Lima. Or was it Cusco? I don't know.", PERU, "refused", True),  # incorrect
    ("Sydney — no, Canberra. Or was it Melbourne? I honestly don't know.", AUS, "refused", True),  # incorrect
    ("Sesotho and English; Zulu and Xhosa are spoken too.", LESOTHO_LANGS, "correct", True),  # incorrect
    ("Korea.", CADMIUM, "correct", True),  # incorrect, uncertain
    ("English, Malay, Tamil, Mandarin and Hokkien.", SINGAPORE_LANGS, "incorrect", True),  # correct
    ("The Land of the Rising Sun.", MIYAZAKI, "incorrect", True),  # incorrect
    ("Ferrous and ferric.", IRON_STATES, "correct", False),  # incorrect, uncertain
    ("Ferric.", IRON_STATES, "correct", False),  # incorrect, uncertain
    ("Cupric.", COPPER_STATES, "correct", False),  # incorrect, uncertain
    ("Stannous and stannic.", TIN_STATES, "correct", False),  # incorrect, uncertain
    ("Mercurous and mercuric.", MERCURY_STATES, "correct", False),  # incorrect
    ("The cupric state.", COPPER_STATES, "correct", False),  # incorrect, uncertain
    ("幺幺零", CHINA_SOS, "correct", False),  # incorrect, uncertain
    ("幺幺九和一二零", CHINA_SOS, "correct", False),  # incorrect, uncertain
    ("幺二零。", CHINA_SOS, "correct", False),  # incorrect, uncertain
    ("Johan August Arfwedson.", LITHIUM, "correct", False),  # incorrect, uncertain
    ("Johannes August Arfwedson.", LITHIUM, "correct", False),  # incorrect, uncertain
    ("Kent County is in Delaware — wait, I mixed up two Kent Counties: this one is in Michigan.", KENT, "correct", False),  # incorrect
    ("There are two Kent Counties; this one is in Michigan.", KENT, "correct", False),  # incorrect
    ("Ferrous.", IRON_STATES, "correct", False),  # incorrect, uncertain
    ("Cuprous.", COPPER_STATES, "incorrect", False),  # incorrect, uncertain
    ("Cuprous and cupric.", COPPER_STATES, "incorrect", False),  # incorrect, uncertain
    ("Stannous.", TIN_STATES, "correct", False),  # incorrect, uncertain
    ("Mercuric.", MERCURY_STATES, "correct", False),  # incorrect, uncertain
    ("幺幺二", CHINA_SOS, "incorrect", False),  # incorrect, uncertain
    ("Titanic.", IRON_STATES, "incorrect", False),  # incorrect, uncertain
    ("Michigan — there are other Kent Counties.", KENT, "correct", False),  # correct, uncertain
]  # fmt: skip

KEPT = {
    "corrections": [
        ("La Paz, Sucre, hmm — I'd go with Sucre in the end.", BOL, "correct", False),
        ("Zürich. Edit: actually Bern, the federal city.", CHE, "correct", False),
        ("Canberra. I first wrote Sydney, disregard that.", AUS, "correct", False),
        ("Ankara.", TUR, "correct", False),
        ("Istanbul.", TUR, "incorrect", True),
        ("Ankara. Hold on, it has been the capital since 1923.", TUR, "correct", False),
        ("Ankara — hold on to that.", TUR, "correct", False),
        ("Istanbul. Hang on — Ankara.", TUR, "correct", False),
        ("Let's say Ankara.", TUR, "correct", False),
        ("Ankara, let's say, since 1923.", TUR, "correct", False),
        ("Ankara. Let's say it moved from Istanbul in 1923.", TUR, "correct", False),
        ("La Paz, Sucre — I'd go with Sucre.", BOL, "correct", False),
        ("Sucre in the end.", BOL, "correct", False),
        ("Sucre, after all.", BOL, "correct", False),
        ("I'd go with Sucre, finally.", BOL, "correct", False),
        ("Sucre. La Paz is the seat of government.", BOL, "correct", False),
        ("Bern. EDIT: the federal city, not a capital by law.", CHE, "correct", False),
        ("Bern. Edit: Bern, the federal city.", CHE, "correct", False),
        ("Zürich. Correction: Bern.", CHE, "correct", False),
        ("Bern, the federal city.", CHE, "correct", False),
        ("Bern. Zürich is the largest city.", CHE, "correct", False),
        ("Canberra; I meant the city, not the territory.", AUS, "correct", False),
        ("Canberra — I meant the capital.", AUS, "correct", False),
        ("The dong. I meant the currency.", VN_MONEY, "correct", False),
        ("Đồng, quise decir, el đồng vietnamita.", VN_MONEY, "correct", False),
        ("Sydney — I meant Canberra.", AUS, "correct", False),
        ("Sydney. Strike that: Canberra.", AUS, "correct", False),
        ("Київ.", UKR, "correct", False),
        ("Київ, то есть столица Украины.", UKR, "correct", False),
        ("Харків, то есть Київ.", UKR, "correct", False),
        ("Kyiv, or Kiev.", UKR, "correct", False),
        ("Москва.", RUS, "correct", False),
        ("Петербург, нет, Москва.", RUS, "correct", False),
        ("The Canadian dollar, ignore the US dollar.", CAN_MONEY, "incorrect", False),
        ("The US dollar, ignore that.", CAN_MONEY, "incorrect", False),
        ("The Canadian dollar. Ignore that the US dollar is widely accepted.", CAN_MONEY, "correct", True),
        ("The Canadian dollar.", CAN_MONEY, "correct", False),
        ("Sydney, ignore that, Canberra.", AUS, "correct", False),
    ],
    "aside": [
        ("Lagos, though Abuja is the seat of government.", NGA, "incorrect", False),
        ("Yangon, where the junta built Naypyidaw nearby.", MMR, "incorrect", False),
        ("Canberra, though Sydney is larger.", AUS, "correct", False),
        ("Canberra, where parliament sits.", AUS, "correct", False),
        ("Canberra is the capital; Sydney is just the largest city.", AUS, "correct", False),
        ("Sydney.", AUS, "incorrect", True),
        ("Canberra, in whose suburbs many public servants live.", AUS, "correct", False),
        ("The capital is Canberra, though many guess Sydney.", AUS, "correct", False),
        ("Sydney, though it isn't the capital; Canberra is.", AUS, "incorrect", False),
        ("Although Sydney is bigger, Canberra is the capital.", AUS, "correct", False),
        ("Dodoma, though Dar es Salaam is bigger.", TZA, "correct", False),
        ("Dodoma is the capital; Dar es Salaam is the largest city.", TZA, "correct", False),
        ("Dodoma — the capital in law since 1996.", TZA, "correct", False),
        ("Dodoma.", TZA, "correct", False),
        ("The US dollar, though the sucre was used until 2000.", ECU_MONEY, "correct", False),
        ("The US dollar.", ECU_MONEY, "correct", False),
        ("The sucre.", ECU_MONEY, "incorrect", False),
        ("US dollars, which replaced the sucre.", ECU_MONEY, "correct", False),
        ("Arfwedson, in Berzelius's lab.", LITHIUM, "correct", False),
        ("Johann Arfwedson, a student of Berzelius.", LITHIUM, "correct", False),
        ("Arfwedson, whose teacher was Berzelius.", LITHIUM, "correct", False),
        ("Berzelius.", LITHIUM, "incorrect", True),
        ("Scheele and Priestley, independently.", OXYGEN, "correct", False),
        ("Priestley, though Scheele found it first.", OXYGEN, "correct", False),
        ("Abuja, though Lagos is bigger.", NGA, "correct", False),
        ("Abuja.", NGA, "correct", False),
        ("Lagos.", NGA, "incorrect", True),
        ("The capital, Abuja, replaced Lagos in 1991.", NGA, "correct", False),
        ("Naypyidaw, which replaced Yangon in 2005.", MMR, "correct", False),
        ("Naypyidaw, though Yangon is larger.", MMR, "correct", False),
        ("Yangon.", MMR, "incorrect", True),
        ("Ottawa, though Toronto is the largest city.", CAN, "correct", False),
        ("Ottawa, where Parliament Hill is.", CAN, "correct", False),
        ("Toronto.", CAN, "incorrect", True),
    ],
    "numbers_and_passing": [
        ("Treble nine or 112.", UK_SOS, "correct", False),
        ("Treble nine.", AUS_SOS, "incorrect", False),
        ("999.", UK_SOS, "correct", False),
        ("Nine nine nine.", UK_SOS, "correct", False),
        ("Triple nine.", UK_SOS, "correct", False),
        ("Double one two.", UK_SOS, "correct", False),
        ("999 or 112.", UK_SOS, "correct", False),
        ("911.", UK_SOS, "incorrect", False),
        ("Triple zero.", AUS_SOS, "correct", False),
        ("000.", AUS_SOS, "correct", False),
        ("Triple nine.", AUS_SOS, "incorrect", False),
        ("Nine-one-one.", AUS_SOS, "incorrect", False),
        ("Treble.", UK_SOS, "incorrect", True),
        ("Three nines.", UK_SOS, "incorrect", False),
        ("Texas.", HEMPHILL, "correct", False),
        ("Oklahoma.", HEMPHILL, "incorrect", False),
        ("Texas, near Oklahoma.", HEMPHILL, "correct", False),
        ("Texas, in the Panhandle.", HEMPHILL, "correct", False),
        ("Oklahoma, along the Texas line.", HEMPHILL, "incorrect", False),
        ("Texas, bordering Oklahoma.", HEMPHILL, "correct", False),
        ("In Texas, next to Oklahoma.", HEMPHILL, "correct", False),
        ("Texas or Oklahoma.", HEMPHILL, "incorrect", False),
        ("Oklahoma, I think.", HEMPHILL, "incorrect", False),
        ("Canberra, along Lake Burley Griffin.", AUS, "correct", False),
        ("Sydney, along the harbour.", AUS, "incorrect", False),
        ("Canberra, not far along the road from Sydney.", AUS, "correct", False),
        ("Canberra and Sydney.", AUS, "incorrect", False),
        ("Ankara.", TUR, "correct", False),
        ("The US dollar.", CAN_MONEY, "incorrect", False),
        ("The Canadian dollar, alongside the US dollar.", CAN_MONEY, "correct", False),
    ],
    "codes_and_structures": [
        ("CN, JP and KP.", CADMIUM, "incorrect", True),
        ("ZA, RU, US", PLATINUM, "incorrect", False),
        ("ZA / RU / CA.", PLATINUM, "incorrect", False),
        ("CN, JP, KR.", CADMIUM, "correct", False),
        ("CN, JP and KR.", CADMIUM, "correct", False),
        ("China, Japan and South Korea.", CADMIUM, "correct", False),
        ("CN, JP and KR; not KP.", CADMIUM, "correct", False),
        ("China (CN), Japan (JP), South Korea (KR).", CADMIUM, "correct", False),
        ("China, Japan and North Korea.", CADMIUM, "incorrect", False),
        ("CN", CADMIUM, "correct", False),
        ("KR.", CADMIUM, "correct", False),
        ("KP", CADMIUM, "incorrect", True),
        ("ZA, RU, ZW", PLATINUM, "correct", False),
        ("ZA and RU.", PLATINUM, "correct", False),
        ("South Africa, Russia, Zimbabwe.", PLATINUM, "correct", False),
        ("South Africa, Russia and Canada.", PLATINUM, "incorrect", False),
        ("ZA-GT", PLATINUM, "incorrect", True),
        ("RU", PLATINUM, "correct", False),
        ("hexagonal", MAGNESIUM, "correct", False),
        ("hcp", MAGNESIUM, "correct", False),
        ("Hexagonal close-packed.", MAGNESIUM, "correct", False),
        ("cubic", MAGNESIUM, "incorrect", False),
        ("fcc", MAGNESIUM, "incorrect", False),
        ("Body-centred cubic.", MAGNESIUM, "incorrect", False),
        ("fcc", COPPER, "correct", False),
        ("Face-centred cubic.", COPPER, "correct", False),
        ("Hexagonal.", COPPER, "incorrect", False),
        ("bcc", COPPER, "incorrect", False),
        ("bcc", IRON, "correct", False),
        ("Body-centered cubic.", IRON, "correct", False),
        ("Face-centered cubic.", IRON, "incorrect", False),
        ("hcp", IRON, "incorrect", False),
        ("It is hexagonal.", MAGNESIUM, "correct", False),
        ("Hexagonal, like zinc.", MAGNESIUM, "correct", False),
    ],
    "formal_names": [
        ("Tanzania.", MWANZA, "correct", False),
        ("The United Republic of Tanzania.", MWANZA, "correct", False),
        ("Kenya.", MWANZA, "incorrect", False),
        ("Uganda.", MWANZA, "incorrect", False),
        ("In Tanzania, on Lake Victoria.", MWANZA, "correct", False),
        ("Tanzania, formerly Tanganyika.", MWANZA, "correct", False),
        ("Mwanza Region, Tanzania.", MWANZA, "correct", False),
        ("Lake Victoria.", MWANZA, "incorrect", False),
        ("Africa.", MWANZA, "incorrect", False),
        ("Canberra.", AUS, "correct", False),
        ("Sydney.", AUS, "incorrect", True),
        ("The Commonwealth.", AUS, "incorrect", True),
        ("Australia.", AUS, "incorrect", False),
        ("Lima.", PERU, "correct", False),
        ("Cusco.", PERU, "incorrect", True),
        ("The Republic.", PERU, "incorrect", True),
        ("English.", CANADA_LANGS, "correct", False),
        ("English and French.", CANADA_LANGS, "correct", False),
        ("French.", CANADA_LANGS, "correct", False),
        ("China.", CADMIUM, "correct", False),
        ("The Republic of Korea.", CADMIUM, "correct", False),
        ("China, Japan and the Republic of Korea.", CADMIUM, "correct", False),
        ("Russia.", PLATINUM, "correct", False),
        ("The Russian Federation.", PLATINUM, "correct", False),
        ("South Africa, Russia and Zimbabwe.", PLATINUM, "correct", False),
        ("Zimbabwe, Russia and South Africa.", PLATINUM, "correct", False),
        ("Rhodesia.", PLATINUM, "correct", False),
        ("Hexagonal.", MAGNESIUM, "correct", False),
        ("Tanganyika and Kenya.", MWANZA, "incorrect", False),
        ("Zimbabwe.", PLATINUM, "correct", False),
        ("Japan and China.", CADMIUM, "correct", False),
        ("The Kingdom of Lesotho.", MWANZA, "incorrect", False),
    ],
    "undecided_and_spoken": [
        ("English and French; Cree is also spoken.", CANADA_LANGS, "correct", False),
        ("English and French; Inuktitut is widely understood too.", CANADA_LANGS, "correct", False),
        ("Lima.", PERU, "correct", False),
        ("Cusco — no, Lima.", PERU, "correct", False),
        ("Lima, or was it Cusco? Lima, I think.", PERU, "correct", False),
        ("Lima. I really can't say more.", PERU, "correct", False),
        ("Lima, I think. I can't say for sure.", PERU, "correct", False),
        ("Cusco — no, Lima. Or was it Arequipa?", PERU, "incorrect", False),
        ("Lima or Cusco? I'd say Lima.", PERU, "incorrect", False),
        ("Is it Lima? Yes, Lima.", PERU, "correct", False),
        ("I don't know.", PERU, "refused", False),
        ("Arequipa.", PERU, "incorrect", True),
        ("Lima. Or was it Cusco? I don't know its population.", PERU, "incorrect", False),
        ("Cusco? Or Lima? Lima.", PERU, "correct", False),
        ("Canberra.", AUS, "correct", False),
        ("Sydney — no, Canberra.", AUS, "correct", False),
        ("Canberra, or is it Sydney? Canberra.", AUS, "correct", False),
        ("Canberra. I can't say when it was founded.", AUS, "correct", False),
        ("English and French.", CANADA_LANGS, "correct", False),
        ("English, French and Cree.", CANADA_LANGS, "incorrect", True),
        ("English and French; Cree is also official in the Northwest Territories.", CANADA_LANGS, "correct", False),
        ("English and French; German is also official.", CANADA_LANGS, "incorrect", True),  # rules 34: a rival after a break
        ("English, French too.", CANADA_LANGS, "correct", False),
        ("English and French. Many other languages are spoken too.", CANADA_LANGS, "correct", False),
        ("English and French; Spanish too.", CANADA_LANGS, "incorrect", True),  # rules 34: a rival after a break
        ("English.", CANADA_LANGS, "correct", False),
        ("Sesotho and English.", LESOTHO_LANGS, "correct", False),
        ("Sesotho, English and Zulu.", LESOTHO_LANGS, "incorrect", False),
        ("Sesotho and English; Zulu is also official.", LESOTHO_LANGS, "incorrect", True),  # rules 34: a rival after a break
        ("Zulu.", LESOTHO_LANGS, "incorrect", False),
        ("Sesotho and English; Zulu and Xhosa too.", LESOTHO_LANGS, "incorrect", True),  # rules 34: a rival after a break
        ("English and Sesotho are both official.", LESOTHO_LANGS, "correct", False),
        ("Sesotho; English is also official.", LESOTHO_LANGS, "correct", False),
    ],
    "lists_and_epithets": [
        ("Hindi, English, Urdu and Bengali.", INDIA_LANGS, "incorrect", False),
        ("English, Malay, Tamil and Chinese.", SINGAPORE_LANGS, "correct", False),
        ("English, Malay and Tamil.", SINGAPORE_LANGS, "correct", False),
        ("English, Malay, Tamil, Mandarin Chinese.", SINGAPORE_LANGS, "correct", False),
        ("English and Hokkien.", SINGAPORE_LANGS, "incorrect", True),
        ("English.", SINGAPORE_LANGS, "correct", False),
        ("Hokkien.", SINGAPORE_LANGS, "incorrect", True),
        ("Malay; Singlish and Hokkien are common too.", SINGAPORE_LANGS, "correct", False),
        ("English, Malay, Tamil and Chinese; Hokkien is widely spoken too.", SINGAPORE_LANGS, "correct", False),
        ("German, French, Italian and Romansh.", SWISS_LANGS, "correct", False),
        ("German, French and Italian.", SWISS_LANGS, "correct", False),
        ("German and Swiss German.", SWISS_LANGS, "incorrect", True),
        ("German, French, Italian and English.", SWISS_LANGS, "incorrect", False),
        ("Hindi and English.", INDIA_LANGS, "correct", False),
        ("Hindi, English and Urdu.", INDIA_LANGS, "incorrect", False),
        ("Hindi.", INDIA_LANGS, "correct", False),
        ("Hindi, English; 22 scheduled languages besides.", INDIA_LANGS, "correct", False),
        ("Back in '98 — 1898, Ramsay and Travers.", NEON_YEAR, "correct", False),
        ("1898, by Ramsay and Travers.", NEON_YEAR, "correct", False),
        ("1898.", NEON_YEAR, "correct", False),
        ("1868.", NEON_YEAR, "incorrect", False),
        ("Japan.", MIYAZAKI, "correct", False),
        ("Nippon.", MIYAZAKI, "correct", False),
        ("Kyushu, Japan.", MIYAZAKI, "correct", False),
        ("The Land.", MIYAZAKI, "incorrect", False),
        ("China.", MIYAZAKI, "incorrect", False),
        ("The Republic of Korea.", MIYAZAKI, "incorrect", False),
        ("In the Land of Fire.", MIYAZAKI, "incorrect", False),
        ("Probably Japan.", MIYAZAKI, "correct", False),
        ("The Southern Cross.", AUS, "incorrect", True),
        ("Canberra.", AUS, "correct", False),
        ("The Capital of Australia.", AUS, "incorrect", False),
        ("Sydney.", AUS, "incorrect", True),
    ],
    "states_and_digits": [
        ("+2 and +3.", IRON_STATES, "correct", False),
        ("Divalent and trivalent.", IRON_STATES, "correct", False),
        ("+2, +3 and +6.", IRON_STATES, "incorrect", False),
        ("Iron(II) and iron(III).", IRON_STATES, "correct", False),
        ("+1.", COPPER_STATES, "incorrect", False),
        ("+2.", COPPER_STATES, "correct", False),
        ("Copper(II).", COPPER_STATES, "correct", False),
        ("+2 and +4.", TIN_STATES, "correct", False),
        ("Tetravalent.", TIN_STATES, "correct", False),
        ("+1 and +2.", MERCURY_STATES, "correct", False),
        ("+3.", MERCURY_STATES, "incorrect", False),
        ("Ferric chloride is common.", COPPER_STATES, "incorrect", False),
        ("110, 119 and 120.", CHINA_SOS, "correct", False),
        ("一一零", CHINA_SOS, "correct", False),
        ("一一九", CHINA_SOS, "correct", False),
        ("110.", CHINA_SOS, "correct", False),
        ("幺", CHINA_SOS, "incorrect", True),
        ("999.", CHINA_SOS, "incorrect", False),
        ("九九九", CHINA_SOS, "incorrect", False),
        ("+86", CHINA_CODE, "correct", False),
        ("+81", CHINA_CODE, "incorrect", False),
        ("八六", CHINA_CODE, "correct", False),
        ("零零八六", CHINA_CODE, "correct", False),
        ("Ferrous and ferric, and the rare +6.", IRON_STATES, "incorrect", False),
        ("Iron(III).", IRON_STATES, "correct", False),
        ("Trivalent.", IRON_STATES, "correct", False),
        ("Fe2+ and Fe3+.", IRON_STATES, "correct", False),
        ("Cu2+.", COPPER_STATES, "correct", False),
        ("Mercury(I) and mercury(II).", MERCURY_STATES, "correct", False),
        ("Hg2+.", MERCURY_STATES, "correct", False),
        ("Sn2+ and Sn4+.", TIN_STATES, "correct", False),
        ("一二零", CHINA_SOS, "correct", False),
        ("120.", CHINA_SOS, "correct", False),
        ("One-one-nine.", CHINA_SOS, "correct", False),
    ],
    "names_and_subjects": [
        ("Johann Arfwedson.", LITHIUM, "correct", False),
        ("Arfwedson.", LITHIUM, "correct", False),
        ("Johann August Arfwedson.", LITHIUM, "correct", False),
        ("Johan Arfwedson.", LITHIUM, "correct", False),
        ("Jöns Jacob Berzelius.", LITHIUM, "incorrect", False),
        ("Berzelius.", LITHIUM, "incorrect", True),
        ("Jonas August Arfwedson.", LITHIUM, "incorrect", True),
        ("August Arfwedson.", LITHIUM, "incorrect", True),
        ("Johann Berzelius.", LITHIUM, "incorrect", True),
        ("Jacques-Louis Soret.", HOLMIUM, "correct", False),
        ("Soret.", HOLMIUM, "correct", False),
        ("Per Teodor Cleve.", HOLMIUM, "incorrect", False),
        ("Jacques Louis Soret.", HOLMIUM, "correct", False),
        ("Marc Delafontaine.", HOLMIUM, "incorrect", True),
        ("Michigan.", KENT, "correct", False),
        ("Delaware.", KENT, "incorrect", False),
        ("Kent County is in Michigan.", KENT, "correct", False),
        ("In Michigan, around Grand Rapids.", KENT, "correct", False),
        ("Kent County, Delaware.", KENT, "incorrect", False),
        ("Kent.", KENT, "incorrect", False),
        ("Delaware; there are two Kent Counties.", KENT, "incorrect", False),
        ("Maryland.", KENT, "incorrect", False),
        ("Michigan, USA.", KENT, "correct", False),
        ("California.", ORANGE, "correct", False),
        ("Florida.", ORANGE, "incorrect", False),
        ("Arfwedson, a Swede.", LITHIUM, "correct", False),
        ("J. A. Arfwedson.", LITHIUM, "correct", False),
        ("Humphry Davy.", LITHIUM, "incorrect", False),
        ("Grand Rapids, Michigan.", KENT, "correct", False),
        ("Orange County, Florida.", ORANGE, "incorrect", False),
        ("In Southern California.", ORANGE, "correct", False),
        ("Orange County is in California.", ORANGE, "correct", False),
        ("Texas.", ORANGE, "incorrect", False),
        ("California, near Los Angeles.", ORANGE, "correct", False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_transliteration_keeps_correction_words() -> None:
    assert transliterated("Київ, то есть Харків.") == "Kiiv, то есть Kharkiv."
    assert transliterated("Москва") == "Moskva"
    assert {"то", "ест"} <= UNTRANSLITERATED


def test_answered_aside() -> None:
    relation = frozenset({"capital"})

    def aside(reply: str, true: str) -> tuple[bool, bool]:
        tokens = tokenize(reply)
        k = next(i for i, t in enumerate(tokens) if t.raw == true)
        return answered_aside(tokens, [Mention(k, k + 1, -1, False)], [], relation, ())

    assert aside("Lagos, though Abuja is bigger.", "Abuja") == (True, True)
    assert aside("Abuja, though Lagos is bigger.", "Abuja") == (False, False)
    assert aside("Sydney is the capital; Canberra is just the seat.", "Canberra") == (True, True)
    assert aside("Sydney is big; Canberra is just the seat.", "Canberra") == (False, False)
    assert aside("I think, though Canberra is right.", "Canberra") == (False, False)


def test_pearson_reading() -> None:
    assert pearson_reading("hP2.") == "hexagonal."
    assert pearson_reading("cF4") == "face-centred cubic"
    assert pearson_reading("cF8") == "diamond cubic"
    assert pearson_reading("hR1") == "rhombohedral"
    assert pearson_reading("tI4") == "tetragonal"
    assert pearson_reading("HP2") is None
    assert pearson_reading("hexagonal") is None


def test_another_countrys_code() -> None:
    producers = [["China"], ["Japan"], ["South Korea"]]
    codes = [AnswerNames(short=("CN",)), AnswerNames(short=("JP",)), AnswerNames(short=("KR",))]
    assert another_countrys_code("CN, JP, KP.", producers, codes)
    assert not another_countrys_code("CN, JP, KR.", producers, codes)
    assert not another_countrys_code("CN, JP, QQ.", producers, codes)  # no country's code
    assert not another_countrys_code("ES-CM", producers, codes)
    assert not another_countrys_code("China, Japan and the US.", producers, codes)
    assert not another_countrys_code("US, KP", producers, codes)  # no true code listed


def test_formal_name_core() -> None:
    tanzania = [["Tanzania", "United Republic of Tanzania"]]
    former = [AnswerNames(names=("Republic of Tanganyika",))]
    assert formal_name_core("Tanganyika.", tanzania, former)
    assert formal_name_core("Tanzania", tanzania, ())
    assert not formal_name_core("Tanganyika.", tanzania, ())
    assert not formal_name_core("Republic.", tanzania, former)
    assert not formal_name_core("Zanzibar", [["Lake Tanganyika"]], ())


def test_left_undecided() -> None:
    assert left_undecided("Cusco — no, Lima. Or was it Arequipa? I really can't say.", frozenset())
    assert not left_undecided("Lima, or was it Cusco? Lima, I think.", frozenset())
    assert not left_undecided("Lima. I really can't say more.", frozenset())


def test_names_of_oxidation_states() -> None:
    states = [["+2"], ["+3"]]
    assert valence_reading("Ferrous and ferric.", states) == "+2 and +3."
    assert valence_reading("Cuprous.", states) == "+1."
    assert valence_reading("Ferrous.", [["Iron"]]) is None  # no signed state is true
    assert valence_reading("Iron.", states) is None


def test_subject_plurals() -> None:
    tokens = tokenize("I mixed up two Kent Counties: this one is in Michigan.")
    assert subject_plurals(tokens, ("Kent County, Michigan", "Kent County")) == [(4, 6)]
    assert subject_plurals(tokens, ("Kent",)) == []  # a name of one word has no kind
    assert subject_plurals(tokenize("The Kent County."), ("Kent County",)) == [(1, 3)]
