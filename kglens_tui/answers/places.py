"""Countries, their subdivisions and currencies: codes written beside names, a subdivision
addressed with its country, units qualified by another country."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kglens_tui.answers.mentions import Mention, NameTable, Token
from kglens_tui.answers.words import (
    ARTICLES,
    FOREIGN_ARTICLES,
    NAME_NEIGHBOURS,
    name_words,
    normalize,
    truth_table,
)
from kglens_tui.kg.answer_names import (
    PARTICLES,
    AnswerNames,
    bare_fold,
    country_names,
    currency_unit_words,
    subdivision_letters,
)


@lru_cache(maxsize=1)
def _country_names() -> tuple[NameTable, frozenset[str]]:
    """The English names of countries (CLDR, pycountry) as a table, and the same folded."""
    from kglens_tui.kg.answer_names import english_territory_names

    names = english_territory_names()
    return NameTable((name, i) for i, name in enumerate(sorted(names))), frozenset(names)


def about_another_country(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether a rival is told about another country than the one asked about, named before it
    in its clause ("Austria next door uses the euro", "South Korea is +82"), where the subject
    is a country and the answer no country (a country the reply names as a candidate is none
    told about)."""
    if not subject or m.start == 0:
        return False
    table, folded = _country_names()
    if not {normalize(n) for n in subject} & folded:
        return False
    clause = tokens[m.start].clause
    start = m.start
    while start > 0 and tokens[start - 1].clause == clause:
        start -= 1
    if start == m.start:
        return False
    taken = {i for f in found for i in range(f.start, f.end)}
    taken.update(i for a, b, _ in truth_table((subject,)).matches(tokens) for i in range(a, b))
    return any(
        not taken.intersection(range(start + a, start + b))
        for a, b, _ in table.matches(tokens[start : m.start])
    )


_EVENT_WHERE = re.compile(r"\s*where\s+(?:was|were|did)\b", re.IGNORECASE)
"""A question that asks where something happened."""


def with_cities(true_answers: Sequence[Sequence[str]], question: str) -> list[list[str]] | None:
    """Rules 20: to a question that asks where something happened ("Where was radium
    discovered?"), the true countries with the English names of their tz zones' cities among
    their names (`territory_cities`: "In Paris." for France says where in it), or None where no
    true answer is a country, or where there are several (a place in one lists none). Not where a place is ("Where is Bayern located?": a city in the
    country may be in the place asked about). A city says more than the question asks, so a
    reply correct only by one is uncertain (`check_wh`)."""
    if _EVENT_WHERE.match(question) is None or len(true_answers) != 1:
        return None  # a part of one of several places lists none of them
    from kglens_tui.kg.answer_names import territory_cities, territory_codes

    out = []
    for group in true_answers:
        codes = {code for name in group for code in territory_codes(name)}
        out.append([*group, *(c for code in sorted(codes) for c in territory_cities(code))])
    return out if any(len(a) > len(b) for a, b in zip(out, true_answers, strict=True)) else None


def with_territory_signs(
    reply: str, true_answers: Sequence[Sequence[str]], subject: Sequence[str]
) -> list[list[str]] | None:
    """Rules 20: the true answers with the signs of the asked territory's currencies among
    them (`territory_currency_signs`: "$" of the Mexican peso asked of Mexico, "kr" of the
    Norwegian krone, "C$" of the Canadian dollar) that the reply writes apart from letters (not
    the "$" of "US$"), where a true answer is one of its currencies by ISO 4217 code; else None.
    Other currencies share such signs ("$" is the US dollar's), so a reply correct only by them
    is uncertain (`check_wh`). Rules 36: signs and reply are compared folded (`sign_fold`,
    `_sign_forms`: "₨" is "Rs", "د.إ" CLDR's "د.إ.‏", "FCFA" its "F CFA"); the groups
    then hold the folded forms, for the folded reply."""
    codes = [n for group in true_answers for n in group if len(n) == 3 and n.isupper()]
    if not codes or not subject:
        return None
    from kglens_tui.kg.answer_names import territory_codes, territory_currency_signs

    territories = {code for name in subject for code in territory_codes(name)}
    if len(territories) != 1:
        return None
    signs = territory_currency_signs(territories.pop())
    if not any(code in signs for code in codes):
        return None
    text = sign_fold(reply)
    written = {
        n: sorted({v for s in signs.get(n, ()) for v in _sign_forms(s) if _standing_alone(v, text)})
        for group in true_answers
        for n in group
    }
    if not any(written.values()):
        return None
    return [[*group, *(s for n in group for s in written[n])] for group in true_answers]


_OFFSET = re.compile(r"UTC\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$")
_CAPITALS = re.compile(r"(?<![^\W_])[^\W\d_]{3,6}(?![^\W_])")


def _offset_key(name: str) -> str | None:
    """'UTC+05:45' of a true name that is a UTC offset ("UTC+5:45", "UTC-1"), else None."""
    m = _OFFSET.match(name.strip())
    if m is None:
        return None
    sign = "-" if m[1] in "-\u2212" else "+"
    return f"UTC{sign}{int(m[2]):02d}:{m[3] or '00'}"


def with_zone_abbreviations(
    reply: str, true_answers: Sequence[Sequence[str]], subject: Sequence[str]
) -> list[list[str]] | None:
    """Rules 27: the true answers with the time zone abbreviations the reply writes in capitals
    that stand for a true UTC offset among them: those of the asked territory's own zones
    (`territory_zone_abbreviations`: "IST" asked of India, "CST" of China, which other
    countries' zones give other offsets) and, failing that, those dateparser's table lists that
    the tz database no longer writes (`listed_zone_abbreviations`: "NPT", "IRST"); else None."""
    keys = [[_offset_key(n) for n in group] for group in true_answers]
    if not any(k for group in keys for k in group):
        return None
    written = [w for w in _CAPITALS.findall(reply) if w.isupper()]
    if not written:
        return None
    from kglens_tui.kg.answer_names import (
        listed_zone_abbreviations,
        territory_codes,
        territory_zone_abbreviations,
    )

    territories = {code for name in subject for code in territory_codes(name)}
    own = territory_zone_abbreviations(territories.pop()) if len(territories) == 1 else {}
    listed = listed_zone_abbreviations()
    out = [list(group) for group in true_answers]
    added = False
    for word in written:
        offsets = own.get(word) or ({listed[word]} if word in listed else set())
        for group, group_keys in zip(out, keys, strict=True):
            if offsets & set(group_keys) and word not in group:
                group.append(word)
                added = True
    return out if added else None


def sign_fold(text: str) -> str:
    """Rules 36: ``text`` in Unicode's compatibility forms (NFKC: "₨", the rupee sign, is "Rs";
    a narrow no-break space a space), its format characters (the right-to-left mark CLDR
    writes after Arabic signs) left out."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(c for c in folded if unicodedata.category(c) != "Cf")


def _sign_forms(sign: str) -> set[str]:
    """Rules 36: a CLDR sign as written, folded (`sign_fold`), without its closing full stop
    ("د.إ.‏" is also "د.إ") and without its spaces ("F CFA" is also "FCFA")."""
    folded = sign_fold(sign)
    bare = folded.rstrip(".") or folded
    return {sign, folded, bare, bare.replace(" ", "")}


def _standing_alone(sign: str, reply: str) -> bool:
    """Whether ``sign`` is written in ``reply`` with no letter or digit right beside it."""
    return re.search(rf"(?<![^\W_]){re.escape(sign)}(?![^\W_])", reply) is not None


_LATIN_EDGE = re.compile(r"^[A-Za-z]+|[A-Za-z]+$")
_CODE_SHAPED = re.compile(r"[A-Z]{3}")
_NATIONAL_PREFIX_MIN = 2
"""Letters before a sign that name its country surely ("Mex$"); one letter ("L$") may be
another country's too."""


def national_sign(
    reply: str, true_answers: Sequence[Sequence[str]], subject: Sequence[str]
) -> bool | None:
    """Rules 24: whether a reply that is only a sign no CLDR locale has writes a true national
    currency's sign (CLDR's for the asked territory, less its own Latin letters: "$" of "MX$",
    "£" of "EG£", "K") after the first letters of the territory's name or code ("Mex$" asked of
    Mexico, "L$" of Liberia, "E£" of Egypt, "ZK" of Zambia): None when it does not, else whether
    the verdict is uncertain (one letter may start another country's name). A national
    currency's ISO 4217 code starts with its territory's (MXN, LRD; not the US dollar asked of
    Zimbabwe, so "Z$", the old Zimbabwe dollar, is none)."""
    from kglens_tui.kg.answer_names import (
        all_currency_signs,
        territory_codes,
        territory_currency_signs,
    )

    text = reply.strip().rstrip(".!").strip()
    codes = {n for group in true_answers for n in group if len(n) == 3 and n.isupper()}
    if not codes or not text or len(text) > 6 or " " in text or text in all_currency_signs():
        return None
    if _CODE_SHAPED.fullmatch(text):
        return None  # a code's shape ("ZMK", the old kwacha's ISO 4217 code)
    territories = {code for name in subject for code in territory_codes(name)}
    if len(territories) != 1:
        return None
    alpha2 = territories.pop()
    names = {normalize(n).replace(" ", "") for n in subject} | {alpha2.casefold()}
    for code, signs in territory_currency_signs(alpha2).items():
        if code not in codes or not code.startswith(alpha2):
            continue
        for sign in signs:
            base = _LATIN_EDGE.sub("", sign) or sign
            for letters in (text.removesuffix(base), text.removeprefix(base)):
                if (
                    letters != text
                    and letters.isascii()
                    and letters.isalpha()
                    and any(n.startswith(letters.casefold()) for n in names)
                ):
                    return len(letters) < _NATIONAL_PREFIX_MIN
    return None


def another_currencys_sign(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Rules 25: whether a reply that is only a currency sign with letters ("RD$", "NZ$") writes
    a sign CLDR gives only to currencies no true answer is (by ISO 4217 code): it names another
    currency, though a true one shares the bare sign ("$" of the US dollar asked of Haiti)."""
    text = reply.strip().rstrip(".!").strip()
    if not text or len(text) > _SIGN_MAX or not any(c.isalpha() for c in text):
        return False
    from kglens_tui.kg.answer_names import currencies_of_sign

    owners = currencies_of_sign(text)
    codes = {n for group in true_answers for n in group if len(n) == 3 and n.isupper()}
    return bool(owners) and bool(codes) and not owners & codes


_SIGN_MAX = 6
"""The longest currency sign a reply may be ("Bds$")."""


_CODE_LIST = re.compile(r"\s*[A-Z]{2}(?:\s*(?:,|;|/|\band\b|\bor\b)\s*[A-Z]{2})*[\s,;.!]*")
"""A reply that is only two-capital codes in a list ("CN, JP and KR."; flags read as codes)."""


def another_countrys_code(
    reply: str, true_answers: Sequence[Sequence[str]], answer_only: Sequence[AnswerNames]
) -> bool:
    """Rules 26: whether a reply that is only a list of ISO 3166 alpha-2 codes, one of a true
    country ("CN, JP"), also lists the code of a country that no true answer is ("KP", North
    Korea's): it names a rival, though no table knows the code."""
    if not _CODE_LIST.fullmatch(reply):
        return False
    codes = set(re.findall(r"[A-Z]{2}", reply))
    own = {n for group in true_answers for n in group}
    own.update(n for names in answer_only for n in (*names.names, *names.short))
    if not codes & own:
        return False
    import pycountry

    return any(code not in own and pycountry.countries.get(alpha_2=code) for code in codes)


_BRACKETED_CODE = re.compile(r"([^\W\d_]+)\s*\(\s*([A-Z]{2,3})\s*\)")
"""A word, then a code in brackets: "the Saudi Arabian pound (SAR)"."""


def codes_of_other_currencies(
    text: str, tokens: Sequence[Token], found: Sequence[Mention], truth: NameTable
) -> set[Mention]:
    """True mentions by a code in brackets that is given as another currency's code: the word
    before the bracket is a currency's unit word (CLDR's English names: "pound", "dollar",
    "franc") that no true name has ("the Saudi Arabian pound (SAR)" is no riyal; "the Saudi
    riyal (SAR)" and "the Saudi currency (SAR)" are)."""
    codes = {
        tokens[m.start].raw: m
        for m in found
        if m.owner < 0 and m.end - m.start == 1 and tokens[m.start].raw.isupper()
    }
    if not codes or "(" not in text:
        return set()
    glossing: dict[str, set[bool]] = {}
    for word, code in _BRACKETED_CODE.findall(text):
        if code in codes:
            glossing.setdefault(code, set()).add(_another_unit(word.casefold(), truth))
    other = {code for code, kinds in glossing.items() if kinds == {True}}
    return {m for m in found if m.end - m.start == 1 and tokens[m.start].raw in other}


_ADJECTIVE_ENDINGS = ("an", "ian", "n", "i", "ese", "ish", "ic", "ean", "ien", "ois", "er")
"""How an English adjective of a country's name ends ("Luxembourgian", "Israeli", "Swedish")."""


def adjective_of(noun: str, words: frozenset[str]) -> bool:
    """Rules 24: whether one of ``words`` (folded) is the adjective a country's name ``noun``
    (folded) makes: it keeps the name but for at most its last two letters and adds an
    adjective's ending ("luxembourg" and "luxembourgian", "mexico" and "mexican", "sweden"
    and "swedish"; not "niger" and "nigeria")."""
    if len(noun) < 4:
        return False
    for word in words:
        if len(word) <= len(noun) - 2 or word == noun:
            continue
        keep = next((k for k in range(len(noun), len(noun) - 3, -1) if word[:k] == noun[:k]), 0)
        if keep and word[keep:].endswith(_ADJECTIVE_ENDINGS) and len(word) > keep:
            return True
    return False


def _own_unit(noun: str, unit: str, groups: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a true name holds both the adjective of ``noun`` and the unit word ``unit``
    (folded; "the Zimbabwe dollar" is none of Zimbabwe's US dollar and Zimbabwean gold)."""
    stem = unit.removesuffix("s")
    for group in groups:
        for name in group:
            words = name_words(((name,),))
            if (unit in words or stem in words) and adjective_of(noun, words):
                return True
    return False


def qualified_units(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    groups: tuple[tuple[str, ...], ...],
    subject: tuple[str, ...] = (),
) -> frozenset[Mention]:
    """True mentions that are a currency's unit word alone after a capitalised word of its
    clause that no true name has ("the Zimbabwe dollar" is no US dollar; "the US dollar" is).
    Rules 24: a one-word name of the subject whose adjective a true name has beside the unit
    qualifies it as that name does ("the Luxembourg franc" asked of Luxembourg is its Luxembourgian franc; not
    "the Liechtenstein franc", Liechtenstein's Swiss franc)."""
    units = currency_unit_words()
    words = name_words(groups)
    own = {normalize(n) for n in subject if " " not in n.strip()}
    out = set()
    for m in found:
        if m.owner >= 0 or m.end - m.start != 1 or m.start == 0:
            continue
        unit = tokens[m.start].norm
        if unit not in units and unit.removesuffix("s") not in units:
            continue
        before = tokens[m.start - 1]
        if (
            before.word
            and before.clause == tokens[m.start].clause
            and before.raw[:1].isupper()
            and before.norm not in words
            and before.norm not in NAME_NEIGHBOURS
            and before.norm not in ARTICLES
            and before.norm not in PARTICLES
            and before.norm not in FOREIGN_ARTICLES
            and not (before.norm in own and _own_unit(before.norm, unit, groups))
        ):
            out.add(m)
    return frozenset(out)


_SUBDIVISION_CODE = re.compile(r"([A-Z]{2})-([A-Z0-9]{1,3})")


def addressed_elsewhere(
    tokens: Sequence[Token], found: Sequence[Mention], answer_only: tuple[AnswerNames, ...]
) -> frozenset[Mention]:
    """Rules 18: true mentions of a subdivision followed, after a comma and ending the clause,
    by the code letters of another subdivision of its country (ISO 3166-2, as written):
    an address, a place inside that other one ("Washington, D.C." names no state of
    Washington)."""
    others = _other_subdivisions(answer_only)
    if not others:
        return frozenset()
    out = set()
    for m in found:
        k = m.end
        if (
            m.owner < 0
            and k < len(tokens)
            and tokens[k].clause != tokens[k - 1].clause
            and tokens[k].raw in others
            and (k + 1 == len(tokens) or tokens[k + 1].clause != tokens[k].clause)
        ):
            out.add(m)
    return frozenset(out)


_COUNTRY_WORDS = frozenset({"country", "nation", "republic", "kingdom"})
"""Words by which a reply says the name after "of" is a country's."""


def named_as_a_country(
    tokens: Sequence[Token], found: Sequence[Mention], answer_only: tuple[AnswerNames, ...]
) -> frozenset[Mention]:
    """Rules 20: true mentions of a subdivision (an ISO 3166-2 code among its answer-only
    names) that the reply calls a country's name ("The country of Georgia." for the US state):
    they name the country of that name, no answer; rules 21: so do those a gloss right after
    calls a country ("Georgia (the country).")."""
    if not any(_SUBDIVISION_CODE.fullmatch(n) for names in answer_only for n in names.names):
        return frozenset()
    return frozenset(
        m
        for m in found
        if m.owner < 0
        and (
            (
                m.start >= 2
                and tokens[m.start - 1].norm == "of"
                and tokens[m.start - 2].norm in _COUNTRY_WORDS
            )
            or _glossed_as(tokens, m.end, _COUNTRY_WORDS)
        )
    )


def _gloss_start(tokens: Sequence[Token], end: int) -> int | None:
    """Rules 21: where a gloss right after a name starts, past its articles: the name's clause
    ends at ``end`` and the next one (a bracket or a comma's) follows ("Georgia (the country)",
    "Georgia, the US state"); None where no clause opens there."""
    if end >= len(tokens) or end == 0 or tokens[end].clause == tokens[end - 1].clause:
        return None
    clause = tokens[end].clause
    while end < len(tokens) and tokens[end].norm in ARTICLES:
        end += 1
    return end if end < len(tokens) and tokens[end].clause == clause else None


def _glossed_as(tokens: Sequence[Token], end: int, kinds: frozenset[str]) -> bool:
    """Rules 21: whether the name ending at ``end`` is glossed as one of ``kinds`` in a clause
    of its own ("Georgia (the country).", "Georgia, a country in the Caucasus"): that word ends the
    gloss or places the name (`_PLACING`)."""
    k = _gloss_start(tokens, end)
    return (
        k is not None
        and tokens[k].norm in kinds
        and (
            k + 1 == len(tokens)
            or tokens[k + 1].clause != tokens[k].clause
            or tokens[k + 1].norm in _PLACING
        )
    )


_PLACING = frozenset({"in", "on", "of"})
"""Words after which a gloss goes on to place what it calls the name ("a country in the
Caucasus")."""


def without_own_countries(
    tokens: Sequence[Token], found: list[Mention], answer_only: tuple[AnswerNames, ...]
) -> list[Mention]:
    """Rules 20: ``found`` less the rival that follows a true subdivision after a comma and
    ends the clause where it names that subdivision's country (ISO 3166-2; its English names
    and codes, `country_names`): an address ("Illinois, USA.", "Washington, US."), no second
    answer; rules 21: nor is that country's name qualifying a word in lower case in a gloss
    right after the subdivision ("Georgia (the US state).", "Georgia, a US state")."""
    countries = {
        match[1]
        for names in answer_only
        for name in names.names
        if (match := _SUBDIVISION_CODE.fullmatch(name))
    }
    if not countries:
        return found
    own = frozenset().union(*(country_names(c) for c in countries))
    after = {m.end for m in found if m.owner < 0 and not m.negated}
    glossed = {_gloss_start(tokens, end) for end in after}
    dropped = {
        m
        for m in found
        if m.owner >= 0
        and bare_fold(" ".join(t.raw for t in tokens[m.start : m.end])) in own
        and (
            (
                m.start in after
                and tokens[m.start - 1].clause != tokens[m.start].clause
                and (m.end == len(tokens) or tokens[m.end].clause != tokens[m.start].clause)
            )
            or (m.start in glossed and _qualifies(tokens, m.end))
        )
    }
    return [m for m in found if m not in dropped] if dropped else found


def _qualifies(tokens: Sequence[Token], end: int) -> bool:
    """Rules 21: whether the name ending at ``end`` stands before a word in lower case of its
    clause, which it qualifies ("the US state")."""
    return (
        end < len(tokens)
        and tokens[end].clause == tokens[end - 1].clause
        and tokens[end].word
        and tokens[end].raw[:1].islower()
    )


@lru_cache(maxsize=4096)
def _other_subdivisions(answer_only: tuple[AnswerNames, ...]) -> frozenset[str]:
    """The ISO 3166-2 letters of the other subdivisions of the countries of the true
    subdivisions (their codes among their answer-only names)."""
    codes = {
        match.groups()
        for names in answer_only
        for name in names.names
        if (match := _SUBDIVISION_CODE.fullmatch(name))
    }
    own = {letters for _, letters in codes}
    return frozenset(
        letters
        for country, _ in codes
        for letters in subdivision_letters(country)
        if letters not in own
    )


def _another_unit(word: str, truth: NameTable) -> bool:
    """Whether a word is a currency's unit word that no true name contains."""
    units = currency_unit_words()
    if word not in units and word.removesuffix("s") not in units:
        return False
    return not any(word in name or word.removesuffix("s") in name for name, _ in truth.names())


_STATE_FORMS = frozenset(
    {"republic", "kingdom", "territory", "state", "federation", "union", "protectorate",
     "colony", "emirate", "sultanate", "principality", "commonwealth", "dominion", "empire"}
)  # fmt: skip
"""Words of a form of state that, with "of", open a country's formal name ("Republic of
Tanganyika")."""


def formal_name_core(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    answer_only: Sequence[AnswerNames],
    subject: Sequence[str] = (),
) -> bool:
    """Rules 26: whether a reply is only the name a true country's formal or former name gives
    after a form of state and "of" ("Tanganyika." of "Republic of Tanganyika", Tanzania's former
    name): the country by that name, though another place may bear it (so uncertain). Not a
    name of the subject ("Ceylon." asked what Sri Lanka was called: rules 22 read that)."""
    said = normalize(reply)
    if not said or said in {normalize(n) for n in subject}:
        return False
    names = [n for group in true_answers for n in group]
    names.extend(n for extra in answer_only for n in extra.names)
    for name in names:
        head, of, core = name.partition(" of ")
        if of and _STATE_FORMS & set(normalize(head).split()) and normalize(core) == said:
            return True
    return False
