"""Rules 25 of the Wh verifier: readings a careful person applies that rules 24 lacked, and
uncertain where the rules cannot decide. Every reply here was written for these tests (none is
taken from a labelled set), asked as a run asks it of the bundled KGs, in several languages; per
rule, replies whose verdict rules 25 changes and at least thirty ordinary replies, right and
wrong, that keep the verdict and certainty they had under rules 24."""

from __future__ import annotations

import pytest
from verdict_support import checked

from kglens_tui.answers.places import another_currencys_sign
from kglens_tui.answers.reply_forms import domain_under
from kglens_tui.bench.verifier_bench import Rivals

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
TLD = ("country", "internet_tld", "tld")
DISCOVERED = ("elements", "discovery_year", "year")
YEAR = ("country", "independence_year", "year")

KAZ = ("What is the capital of Kazakhstan?", ("Astana",), CAPITAL)
UZB = ("What is the capital of Uzbekistan?", ("Tashkent",), CAPITAL)
AZE = ("What is the capital of Azerbaijan?", ("Baku",), CAPITAL)
MNG = ("What is the capital of Mongolia?", ("Ulan Bator",), CAPITAL)
CAN = ("What is the capital of Canada?", ("Ottawa",), CAPITAL)
AUS = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
NGA = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
TZA = ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL)
BOL = ("What is the capital of Bolivia?", ("Sucre",), CAPITAL)
OXYGEN_YEAR = ("In what year was Oxygen discovered?", ("1774",), DISCOVERED)
SODIUM_YEAR = ("In what year was Sodium discovered?", ("1807",), DISCOVERED)
GHANA_YEAR = ("In what year did Ghana gain independence?", ("1957",), YEAR)
HAITI_MONEY = (
    "What currency is used in Haiti?",
    (("Haitian Gourde", "HTG"), ("US Dollar", "USD", "United States dollar")),
    CURRENCY,
)
ECUADOR_MONEY = ("What currency is used in Ecuador?", (("US Dollar", "USD"),), CURRENCY)
CANADA_MONEY = ("What currency is used in Canada?", (("Canadian Dollar", "CAD"),), CURRENCY)
AUS_MONEY = ("What currency is used in Australia?", (("Australian Dollar", "AUD"),), CURRENCY)
NZ_MONEY = ("What currency is used in New Zealand?", (("New Zealand Dollar", "NZD"),), CURRENCY)
BRAZIL_MONEY = ("What currency is used in Brazil?", (("Brazilian Real", "BRL"),), CURRENCY)
DOM_MONEY = ("What currency is used in Dominican Republic?", (("Dominican Peso", "DOP"),), CURRENCY)
SWEDEN_MONEY = ("What currency is used in Sweden?", (("Swedish Krona", "SEK"),), CURRENCY)
JAPAN_MONEY = ("What currency is used in Japan?", (("Japanese Yen", "JPY"),), CURRENCY)
UK_TLD = ("What is the internet country-code top-level domain of United Kingdom?", (".uk",), TLD)
AUS_TLD = ("What is the internet country-code top-level domain of Australia?", (".au",), TLD)
JAPAN_TLD = ("What is the internet country-code top-level domain of Japan?", (".jp",), TLD)
BRAZIL_TLD = ("What is the internet country-code top-level domain of Brazil?", (".br",), TLD)
FRANCE_TLD = ("What is the internet country-code top-level domain of France?", (".fr",), TLD)


@pytest.fixture(scope="module")
def rivals() -> Rivals:
    """The names of the bundled KGs' entities, loaded once."""
    return Rivals(["country", "elements", "places"])


# Replies whose verdict or certainty rules 25 changes (the comment: what rules 24 gave)
CHANGED = [
    # a correction in more words and languages; a number after a correction
    ("Buxoro, kechirasiz, Toshkent demoqchi edim.", UZB, "correct", False),  # incorrect
    ("Toshkent, kechirasiz, Samarqand demoqchi edim.", UZB, "incorrect", True),  # correct
    ("Sumqayıt — bağışlayın, Bakı demək istəyirdim.", AZE, "correct", False),  # incorrect
    ("Bakı — bağışlayın, Gəncə demək istəyirdim.", AZE, "incorrect", True),  # correct
    ("Эрдэнэт, уучлаарай, Улаанбаатар гэж хэлэх гэсэн юм.", MNG, "correct", False),  # incorrect
    ("Toronto, gabh mo leithscéal, Ottawa atá i gceist agam.", CAN, "correct", False),  # incorrect
    ("Ottawa, gabh mo leithscéal, Montreal atá i gceist agam.", CAN, "incorrect", False),  # correct
    ("Sydney. That was a slip; the answer is Canberra.", AUS, "correct", False),  # incorrect
    ("Canberra. To be precise, though, it's Sydney.", AUS, "incorrect", True),  # correct
    ("1774, though I'll go with 1771.", OXYGEN_YEAR, "incorrect", False),  # correct
    # a sign with letters that CLDR gives only to another currency
    ("RD$", HAITI_MONEY, "incorrect", False),  # correct
    ("NZ$", HAITI_MONEY, "incorrect", False),  # correct
    ("C$", ECUADOR_MONEY, "incorrect", False),  # correct
    ("A$.", ECUADOR_MONEY, "incorrect", False),  # correct
    # a domain under the true top-level domain
    (".co.uk", UK_TLD, "correct", False),  # incorrect
    (".com.au", AUS_TLD, "correct", False),  # incorrect, uncertain
    (".ac.jp", JAPAN_TLD, "correct", False),  # incorrect
    ("com.br", BRAZIL_TLD, "correct", False),  # incorrect, uncertain
    ("bbc.co.uk", UK_TLD, "correct", True),  # incorrect, uncertain
    (".gov.uk.", UK_TLD, "correct", False),  # incorrect, uncertain
    ("gouv.fr", FRANCE_TLD, "correct", True),  # incorrect, uncertain
    # a reply that is only an ellipsis
    ("...", AUS, "unparseable", True),  # unparseable
    ("…", AUS, "unparseable", True),  # unparseable
    ("...", UK_TLD, "unparseable", True),  # unparseable
]  # fmt: skip

KEPT = {
    "corrections": [  # a correction in more words and languages; a number after a correction
        ("Улаанбаатар, уучлаарай, Дархан гэж хэлэх гэсэн юм.", MNG, "correct", False),
        ("Canberra. That was a slip; the answer is Sydney.", AUS, "correct", False),
        ("Lagos — that was a slip: Abuja.", NGA, "correct", False),
        ("Sydney. Though it's Canberra.", AUS, "correct", False),
        ("1771 — no record until 1774, so I'll go with 1774.", OXYGEN_YEAR, "correct", False),
        ("1807; actually 1808.", SODIUM_YEAR, "incorrect", False),
        ("1808; actually 1807.", SODIUM_YEAR, "correct", False),
        ("1957. I'd go with 1960.", GHANA_YEAR, "incorrect", False),
        ("1960. I'd go with 1957.", GHANA_YEAR, "correct", False),
        ("Toshkent.", UZB, "correct", False),
        ("Tashkent, kechirasiz.", UZB, "correct", False),
        ("Samarqand.", UZB, "incorrect", True),
        ("Kechirasiz, bilmayman.", UZB, "incorrect", False),
        ("Bakı.", AZE, "correct", False),
        ("Bakı, Azərbaycanın paytaxtı.", AZE, "correct", False),
        ("Gəncə.", AZE, "incorrect", True),
        ("Улаанбаатар.", MNG, "correct", False),
        ("Ulaanbaatar, the largest city too.", MNG, "correct", False),
        ("Дархан.", MNG, "incorrect", True),
        ("Ottawa.", CAN, "correct", False),
        ("Ottawa atá i gceist agam.", CAN, "correct", False),
        ("Toronto.", CAN, "incorrect", True),
        ("Ottawa, not Toronto.", CAN, "correct", False),
        ("Canberra, though Sydney is larger.", AUS, "correct", False),
        ("Sydney, though it isn't the capital; Canberra is.", AUS, "incorrect", False),
        ("Canberra. Though many think it's Sydney.", AUS, "correct", False),
        ("Canberra, sorry, Sydney.", AUS, "incorrect", True),
        ("Canberra — that was designed as a compromise.", AUS, "correct", False),
        ("Sydney.", AUS, "incorrect", True),
        ("Canberra; the slip people make is Sydney.", AUS, "correct", False),
        ("Abuja, since 1991; Lagos before.", NGA, "correct", False),
        ("Lagos.", NGA, "incorrect", True),
        ("Dodoma, though the government sits largely in Dar es Salaam.", TZA, "correct", False),
        ("Sucre, though La Paz is the seat of government.", BOL, "correct", False),
        ("1774.", OXYGEN_YEAR, "correct", False),
        ("1771.", OXYGEN_YEAR, "incorrect", False),
        ("1774, by Priestley; Scheele in 1771.", OXYGEN_YEAR, "correct", False),
        ("Around 1774, I'll go with that.", OXYGEN_YEAR, "correct", False),
        ("1807, actually.", SODIUM_YEAR, "correct", False),
        ("In 1807; actually Davy isolated it then.", SODIUM_YEAR, "correct", False),
        ("1808.", SODIUM_YEAR, "incorrect", False),
        ("1957.", GHANA_YEAR, "correct", False),
        ("I'd go with 1957.", GHANA_YEAR, "correct", False),
        ("In 1957, though it became a republic in 1960.", GHANA_YEAR, "correct", False),
        ("1960.", GHANA_YEAR, "incorrect", False),
    ],
    "currency_sign": [  # a sign with letters that CLDR gives only to another currency
        ("US$", CANADA_MONEY, "incorrect", False),
        ("NZ$", AUS_MONEY, "incorrect", False),
        ("A$", NZ_MONEY, "incorrect", False),
        ("RD$", BRAZIL_MONEY, "incorrect", False),
        ("US$", HAITI_MONEY, "correct", False),
        ("$", HAITI_MONEY, "correct", False),
        ("G", HAITI_MONEY, "correct", True),
        ("HTG", HAITI_MONEY, "correct", False),
        ("The gourde.", HAITI_MONEY, "correct", False),
        ("The Dominican peso.", HAITI_MONEY, "incorrect", False),
        ("USD", HAITI_MONEY, "correct", False),
        ("The gourde and the US dollar.", HAITI_MONEY, "correct", False),
        ("US$", ECUADOR_MONEY, "correct", False),
        ("$", ECUADOR_MONEY, "correct", False),
        ("The sucre.", ECUADOR_MONEY, "incorrect", False),
        ("USD.", ECUADOR_MONEY, "correct", False),
        ("C$", CANADA_MONEY, "correct", True),
        ("CA$", CANADA_MONEY, "correct", False),
        ("$", CANADA_MONEY, "correct", True),
        ("CAD", CANADA_MONEY, "correct", False),
        ("The US dollar.", CANADA_MONEY, "incorrect", False),
        ("A$", AUS_MONEY, "correct", False),
        ("AU$", AUS_MONEY, "correct", False),
        ("$", AUS_MONEY, "correct", True),
        ("AUD", AUS_MONEY, "correct", False),
        ("NZ$", NZ_MONEY, "correct", False),
        ("$", NZ_MONEY, "correct", True),
        ("R$", BRAZIL_MONEY, "correct", False),
        ("BRL", BRAZIL_MONEY, "correct", False),
        ("The real.", BRAZIL_MONEY, "correct", False),
        ("RD$", DOM_MONEY, "correct", False),
        ("$", DOM_MONEY, "incorrect", False),
        ("DOP", DOM_MONEY, "correct", False),
        ("kr", SWEDEN_MONEY, "correct", True),
        ("SEK", SWEDEN_MONEY, "correct", False),
        ("€", SWEDEN_MONEY, "incorrect", False),
        ("¥", JAPAN_MONEY, "correct", False),
        ("JP¥", JAPAN_MONEY, "correct", False),
        ("₩", JAPAN_MONEY, "incorrect", False),
    ],
    "domain": [  # a domain under the true top-level domain
        (".uk", UK_TLD, "correct", False),
        ("uk", UK_TLD, "correct", True),
        (".UK", UK_TLD, "correct", False),
        (".gb", UK_TLD, "incorrect", False),
        (".co", UK_TLD, "incorrect", False),
        ("uk.com", UK_TLD, "incorrect", True),
        (".uk, though .gb was reserved.", UK_TLD, "correct", False),
        ("It's .uk.", UK_TLD, "correct", False),
        (".com", UK_TLD, "incorrect", True),
        ("www.gov.uk is the government's site.", UK_TLD, "incorrect", False),
        (".au", AUS_TLD, "correct", False),
        ("au", AUS_TLD, "correct", True),
        (".nz", AUS_TLD, "incorrect", False),
        (".com", AUS_TLD, "incorrect", True),
        ("The .au domain.", AUS_TLD, "correct", False),
        (".jp", JAPAN_TLD, "correct", False),
        (".jp (for example .co.jp)", JAPAN_TLD, "correct", False),
        (".cn", JAPAN_TLD, "incorrect", False),
        ("jp", JAPAN_TLD, "correct", True),
        (".br", BRAZIL_TLD, "correct", False),
        (".pt", BRAZIL_TLD, "incorrect", False),
        ("BR", BRAZIL_TLD, "correct", True),
        (".fr", FRANCE_TLD, "correct", False),
        (".de", FRANCE_TLD, "incorrect", False),
        (".co.uk", FRANCE_TLD, "incorrect", False),
        (".fr.", FRANCE_TLD, "correct", False),
        ("fr", FRANCE_TLD, "correct", True),
        (".JP", JAPAN_TLD, "correct", False),
        (".br, as in .com.br sites.", BRAZIL_TLD, "correct", False),
        ("I don't know.", FRANCE_TLD, "refused", False),
        (".eu", FRANCE_TLD, "incorrect", False),
        ("France uses .fr.", FRANCE_TLD, "correct", False),
    ],
    "ellipsis": [  # a reply that is only an ellipsis
        ("", AUS, "unparseable", False),
        ("   ", AUS, "unparseable", False),
        ("?", AUS, "unparseable", False),
        ("—", AUS, "refused", False),
        ("-", AUS, "refused", False),
        ("🤷", AUS, "refused", False),
        ("Canberra...", AUS, "correct", False),
        ("...Canberra", AUS, "correct", False),
        ("Sydney...", AUS, "incorrect", True),
        ("... I don't know.", AUS, "refused", False),
        ("Hmm...", AUS, "incorrect", False),
        ("Canberra…", AUS, "correct", False),
        ("I'm not sure...", AUS, "refused", False),
        ("!", AUS, "unparseable", False),
        ("??", AUS, "unparseable", False),
        ("Well... Canberra.", AUS, "correct", False),
        ("Canberra?", AUS, "correct", False),
        ("N/A", AUS, "refused", False),
        ("Unknown.", AUS, "refused", False),
        ("Pass.", AUS, "refused", False),
        ("\n", AUS, "unparseable", False),
        ("Sydney… no, Canberra.", AUS, "correct", False),
        ("It's... Canberra.", AUS, "correct", False),
        ("Melbourne...", AUS, "incorrect", True),
        ("Canberra.", AUS, "correct", False),
        ("Sydney.", AUS, "incorrect", True),
        ("No idea...", AUS, "refused", False),
        ("¯\\_(ツ)_/¯", AUS, "refused", False),
        ("Let me think... Canberra.", AUS, "correct", False),
        ("Um...", AUS, "incorrect", True),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("reply", "asked", "verdict", "uncertain"), CHANGED)
def test_rules_25_change_these_verdicts(
    rivals: Rivals, reply: str, asked: tuple, verdict: str, uncertain: bool
) -> None:
    got = checked(rivals, reply, asked)
    assert (got.verdict.value, got.uncertain) == (verdict, uncertain)


@pytest.mark.parametrize(
    ("reply", "asked", "verdict", "uncertain"),
    [row for rows in KEPT.values() for row in rows],
)
def test_ordinary_replies_keep_their_verdicts(
    rivals: Rivals, reply: str, asked: tuple, verdict: str, uncertain: bool
) -> None:
    got = checked(rivals, reply, asked)
    assert (got.verdict.value, got.uncertain) == (verdict, uncertain)


@pytest.mark.parametrize("rule", sorted(KEPT))
def test_every_rule_has_thirty_ordinary_replies(rule: str) -> None:
    assert len(KEPT[rule]) >= 30


def test_another_currencys_sign() -> None:
    usd = [["US Dollar", "USD"]]
    assert another_currencys_sign("RD$", usd)
    assert another_currencys_sign(" NZ$. ", usd)
    assert not another_currencys_sign("US$", usd)
    assert not another_currencys_sign("$", usd)  # no letters: many currencies' sign
    assert not another_currencys_sign("RD$", [["US Dollar"]])  # no code to compare
    assert not another_currencys_sign("Mex$", usd)  # no CLDR sign


def test_domain_under() -> None:
    uk = [[".uk"]]
    assert domain_under(".co.uk", uk) is False
    assert domain_under("bbc.co.uk", uk) is True
    assert domain_under(".co.uk", [[".fr"]]) is None
    assert domain_under(".uk", uk) is None
    assert domain_under("the .co.uk domain", uk) is None
