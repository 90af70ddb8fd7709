"""Entity names found whole in a reply (the matcher behind Wh verification).

A reply and every name are cut into the same tokens: words (case and accents folded), signed
numbers ("−2", "+2" and "2" differ only in sign: "2" is "+2"), UTC offsets ("UTC−5",
"UTC-05:00" and "GMT-5" are one token; a bare "UTC" or "GMT" is "UTC+00:00") and top-level
domains (".is"). Letters of scripts written without spaces (Han, kana, Hangul, Thai) are one
token each, so a name is found inside a run of them; words of inflecting alphabets (Cyrillic,
Greek, Georgian, Armenian) are matched without their endings (`_stem`). A name of at most
three characters written as one token is a code ("IT", "USA", "bcc"): it matches only the same
characters in the same case, never the English word.

`mentions` finds the names of some `NameTable`s in a reply; a mention inside a longer one is
dropped (the longest name wins: "South Sudan" is not "Sudan", "group 10" is not "group 1"). A
mention whose clause says "not", "isn't", "never" ... before it is negated.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from kglens_tui.answers.numbers import spell_out
from kglens_tui.kg.answer_names import (
    PARTICLES,
    SOURCED_KINDS,
    AnswerNames,
    answer_names,
    has_sources,
    warm,
)

if TYPE_CHECKING:
    from kglens_tui.kg.graph import KGIndex

CODE_MAX_CHARS = 3
"""A one-token name this short is a code (country, currency or language code)."""

_APOSTROPHES = str.maketrans(dict.fromkeys("\u2018\u2019\u02bb\u02bc\u0060\u00b4\u2032", "'"))
_MINUS = str.maketrans(dict.fromkeys("\u2212\u2012\u2013\ufe63\uff0d", "-"))
"""Minus sign, figure dash, en dash, small and full-width hyphen-minus: all read as '-'."""

_CURRENCY_SIGNS = (
    "".join(c for c in map(chr, range(0x20, 0x3000)) if unicodedata.category(c) == "Sc")
    + "\ufdfc\ufe69\uff04\uffe0\uffe1\uffe5\uffe6"
)
"""Currency signs ($ € £ ¥ ₪ ₹ ...): each one token, so "US$" and "€" are names."""

_UNSPACED_LETTERS = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f"
)
"""Scripts written without spaces between words (`_UNSPACED`)."""
_TOKEN = re.compile(
    rf"""
    (?P<offset>\b(?:utc|gmt)
        (?:\s*(?P<sign>[+-])\s*(?P<hours>\d{{1,2}})
           (?:[.,](?P<fraction>\d{{1,2}})(?!\d)|:?(?P<minutes>\d{{2}}))?(?!\d)|(?!\w)))
    |(?P<tld>(?<![\w.])\.[^\W\d_]{{2,3}}\b)
    |(?P<number>(?P<lead>[+-])?(?P<digits>\d+(?:\.\d+)?)(?!(?![{_UNSPACED_LETTERS}])[^\W\d_])
        (?P<area>(?<=\d)(?:-\d+(?:-\d+)*|\ ?\(0\)\ ?\d+)(?![^\W\d_]))?(?:(?P<trail>[+-])(?!\w))?)
    |(?P<initials>(?<![\w.])[^\W\d_]\.(?:(?:[^\W\d_]\.)+(?![^\W\d_])|[^\W\d_](?![\w.])))
    |(?P<word>[^\W_]+(?:'[^\W_]+)*)
    |(?P<amp>&)
    |(?P<sign_>[{_CURRENCY_SIGNS}])
    |(?P<stop>[,;:.!?()\[\]\n\u2014\u3001\u3002]+|(?<=\s)-(?=\s))
    """,
    re.IGNORECASE | re.VERBOSE,
)
_ELIDED = re.compile(r"([^\W\d_A-Z]{1,5})'(?=[^\W\d_]{3})")
"""An elided article or preposition before a word of three letters or more (French and
Italian "l'", "d'", "nell'", "dell'"): read as a word of its own, so the name after it is found
("nell'Italia", "cote d'ivoire"); not English contractions ("don't", "you're")."""
_ARTICLE_PREFIX = re.compile("(?:\u05d4(?=[\u05d0-\u05ea]{3})|\u0627\u0644(?=[\u0621-\u064a]{2}))")
"""The definite article written as part of the word: Hebrew ה, Arabic ال ("השקל" is "שקל"): read
without it, in replies and names alike."""
_SENTENCE_STOP = re.compile(r"[.!?\u3002]")
_SHORT_FORMS = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"}
"""Abbreviated name words read as written out ("St. Lucia" is "Saint Lucia"; "Mt." "Mount")."""
_ABBREVIATIONS = frozenset({*_SHORT_FORMS, "mr", "mrs", "ms", "dr", "gen", "pres", "prof"})
"""Words whose full stop ends no sentence ("St. Lucia", "Mr. Macron")."""
_CLAUSE_WORDS = frozenset({"but", "however", "although", "though", "whereas", "while"})

GERMANIC_NOT = frozenset({"nicht", "niet", "inte", "ikke"})
""""Not" in German, Dutch, Swedish and Danish or Norwegian."""
_NEGATORS = frozenset(
    {
        "not",
        "no",
        "never",
        "neither",
        "nor",
        "isnt",
        "arent",
        "wasnt",
        "werent",
        "doesnt",
        "dont",
        "didnt",
        "cant",
        "cannot",
        "couldnt",
        "wont",
        "wouldnt",
        "hasnt",
        "havent",
        "hadnt",
        "shouldnt",
        "aint",
        "except",
        "excluding",
        "besides",
        *("nie", *GERMANIC_NOT, "ne", "non", "не"),
    }
)
"""Words that deny the name after them in their clause; rules 19: "not" in Polish, German,
Dutch, Swedish, Danish and Norwegian, the Slavic languages' "ne" and "не", and "non"
("Canberra, nie Sydney")."""
_NEGATING_PAIRS = frozenset({("rather", "than"), ("other", "than"), ("instead", "of")})
"""'rather than X', 'other than X', 'instead of X'."""
_NOT_A_NEGATION_BEFORE = frozenset(
    {"only", "just", "merely", "sure", "certain", "entirely", "completely", "100", "quite"}
)
"""'not only X', 'not sure, X': the word after 'not' that makes it no negation of X."""

_HEDGE = re.compile(
    r"\b(?=[iplmcnuabe])(?:i\s+(?:think|believe|guess|suppose|recall|remember)|"
    r"i(?:'d|\s+would)\s+(?:go\s+with|pick|say|guess)|if\s+i\s+had\s+to\b|"
    r"p(?:robably|ossibly|erhaps)|ma(?:ybe|y\s+be)|might|likely|could\s+be|"
    r"not\s+(?:sure|certain|entirely)|un(?:sure|certain)|as\s+far\s+as\s+i\s+know|best\s+guess|"
    r"either(?=[^.!?;]*\bor\b)(?![^.!?;]*\bdepend))\b",
    re.IGNORECASE,
)
"""Words that express doubt: "I think", "probably", "not sure", "might", "I'd go with", "I'd
guess" (rules 9), "if I had to", "either X or Y" (not "either X or Y, depending on the
definition": a condition, no doubt)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a reply or a name."""

    norm: str
    """Matching form: folded word, '+2' / '-2', 'utc-05:00', '.is'."""
    raw: str
    """As written (accents stripped), for codes."""
    clause: int
    """Index of the clause the token is in (clauses end at , ; : . ! ? ( ) and 'but')."""
    word: bool
    """A word (may take a plural -s and be a code); not a number, offset or domain."""
    sentence: int = 0
    """Index of the sentence the token is in (sentences end at . ! ? before a capital, not after
    an abbreviation or a number)."""


def clean_quotes(text: str) -> str:
    """Map typographic apostrophes (’ ‘ ʻ ʼ ` ´) to ASCII '."""
    return text.translate(_APOSTROPHES)


_LETTERS = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H", "ı": "i",
     "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d",
     "Ð": "D"}
)  # fmt: skip
"""Latin letters with a stroke or ligatures, which NFKD does not take apart ("złoty" is
"zloty", "København" "Kobenhavn")."""


def _fold(text: str) -> str:
    """NFKC, typographic apostrophes and minus signs made ASCII, accents dropped, letters with
    a stroke and ligatures spelled in plain Latin letters (case kept)."""
    if text.isascii():
        return text.replace("`", "'")
    cleaned = (
        clean_quotes(unicodedata.normalize("NFKC", text)).translate(_MINUS).translate(_LETTERS)
    )
    cleaned = _OTHER_DIGIT.sub(_ascii_digit, cleaned)
    decomposed = unicodedata.normalize("NFKD", cleaned)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    if _JAMO.search(plain):  # Hangul syllables come apart in NFKD: put them together again
        return unicodedata.normalize("NFC", plain)
    return plain


_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
"""A decimal digit of another script than ASCII's (Arabic-Indic "١٩٥٦", Devanagari "१९४७"):
rules 11 read it as its value, as the Unicode database gives it."""


def _ascii_digit(match: re.Match[str]) -> str:
    return str(unicodedata.decimal(match[0]))


_JAMO = re.compile("[\u1100-\u11ff]")
_UNSPACED = re.compile(f"[{_UNSPACED_LETTERS}]")
"""Letters of scripts written without spaces between words (Thai, Lao, Myanmar, Khmer, kana,
Han) or whose words take their endings in the same run of letters (Hangul: "서울입니다" is
"서울" and a verb ending): each is a token of its own, so a name in them is found inside a run
("中国的首都是北京" names "北京")."""
_ENDINGS = {
    "CYRILLIC": frozenset("аеиоуыэюяёіїєўйьъ"),
    "GREEK": frozenset("αεηιουωςν"),
    "GEORGIAN": frozenset("აეიოუს"),
    "ARMENIAN": frozenset("աեէըիոօւն"),
}
"""Per alphabet whose words inflect by their ending, the letters an ending is made of (vowels,
and the case letters that follow them): a word is matched without them ("Москвы", "Москве" and
"Москва" are one word; "თბილისია" is "თბილისი")."""
_INFLECTED = re.compile("[\u0370-\u03ff\u0400-\u04ff\u0530-\u058f\u10a0-\u10ff]")
_STEM_MIN_CHARS = 3
"""A word keeps at least this many letters when its ending is cut."""


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A word of an inflecting alphabet (`_ENDINGS`) without its ending: every ending letter at
    its end cut while at least `_STEM_MIN_CHARS` letters remain ("თბილისი" and "თბილისია" are
    both "თბილი")."""
    script = unicodedata.name(word[-1], "").split(" ")[0]
    endings = _ENDINGS.get(script)
    if endings is None or len(word) < _STEM_MIN_CHARS + 1:
        return word
    cut = 0
    while len(word) - cut > _STEM_MIN_CHARS and word[-1 - cut] in endings:
        cut += 1
    return word[: len(word) - cut] if cut else word


def _offset(match: re.Match[str]) -> str:
    if match["sign"] is None:
        return "utc+00:00"
    hours = int(match["hours"])
    if match["fraction"]:  # decimal hours: "UTC+5.5" is UTC+05:30, "UTC+5.75" UTC+05:45
        minutes = round(float("0." + match["fraction"]) * 60)
    else:
        minutes = int(match["minutes"] or 0)
    sign = "+" if hours == minutes == 0 else match["sign"]
    return f"utc{sign}{hours:02d}:{minutes:02d}"


@lru_cache(maxsize=1 << 14)
def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of a text, in order (see the module docstring); cached: the rules read a
    reply several times."""
    out: list[Token] = []
    clause = sentence = 0
    folded = spell_out(_fold(text))
    for match in _TOKEN.finditer(folded):
        kind = match.lastgroup
        raw = match.group(0)
        if kind == "stop":
            clause += 1
            abbreviated = (
                bool(out)
                and raw == "."
                and (out[-1].raw.casefold() in _ABBREVIATIONS or not out[-1].word)
            )  # "St. Lucia", "Mr. Macron"; "2. Brazil" numbers a list
            if (
                _SENTENCE_STOP.search(raw)
                and not abbreviated
                and _ends_sentence(raw, folded, match.end())
            ):
                sentence += 1
            continue
        if kind == "offset":
            out.append(Token(_offset(match), raw, clause, False, sentence))
        elif kind == "tld":
            out.append(Token(raw.casefold(), raw, clause, False, sentence))
        elif kind == "number":
            lead = match["lead"]
            if lead and match.start() > 0 and folded[match.start() - 1].isalnum():
                lead = None  # "A-3": a hyphen between, not a sign
            # "+1-268" is one number: calling code +1 with an area code, never +268 (so is
            # "+44 (0)20"); "9-1-1" is 911 spelled digit by digit
            digits, area = match["digits"], match["area"]
            spelled = area and "(" not in area and len(digits) == 1
            if spelled and all(len(part) == 1 for part in area[1:].split("-")):
                digits += area.replace("-", "")
            sign = lead or (None if area else match["trail"]) or "+"
            out.append(Token(sign + digits, raw, clause, False, sentence))
        elif kind == "initials":  # "D.C.", "U.S.": the letters as one word
            letters = raw.replace(".", "")
            out.append(Token(letters.casefold(), letters, clause, True, sentence))
        elif kind == "amp":
            out.append(Token("and", raw, clause, True, sentence))
        elif kind == "sign_":
            out.append(Token(raw, raw, clause, False, sentence))
        else:
            if not raw.isascii() and _UNSPACED.search(raw):
                for part in _split_unspaced(raw):
                    out.append(Token(part.casefold(), part, clause, True, sentence))
                continue
            elided = _ELIDED.match(raw)
            if elided:  # "nell'Italia", "l'Espagne": the article, then the name
                out.append(Token(elided[1].casefold(), elided[1], clause, True, sentence))
                raw = raw[elided.end(1) + 1 :]
            norm = raw.casefold().replace("'", "")
            if norm in _CLAUSE_WORDS:
                clause += 1
            norm = _SHORT_FORMS.get(norm, norm)
            if not norm.isascii() and _INFLECTED.search(norm):
                norm = _stem(norm)
            elif not norm.isascii() and _ARTICLE_PREFIX.match(norm):
                norm = _ARTICLE_PREFIX.sub("", norm, count=1)
            out.append(Token(norm, raw, clause, True, sentence))
    return tuple(out)


def _split_unspaced(word: str) -> list[str]:
    """A word cut into its letters of unspaced scripts (`_UNSPACED`), one token each, and the
    runs of other letters between them."""
    parts: list[str] = []
    run = ""
    for c in word:
        if _UNSPACED.match(c):
            if run:
                parts.append(run)
                run = ""
            parts.append(c)
        else:
            run += c
    if run:
        parts.append(run)
    return parts


def _ends_sentence(stop: str, text: str, end: int) -> bool:
    """Whether punctuation ends a sentence: . ! ? followed by the end of the text or by a space
    and what is not a lower-case letter (a line break alone does not: lines may list items)."""
    if end >= len(text) or stop.endswith("\u3002"):  # 。 ends a sentence without a space
        return True
    rest = text[end : end + 2]
    return rest[:1].isspace() and not rest[1:2].islower()


def has_hedge(text: str, end: int | None = None) -> bool:
    """Whether a text (up to `end`) expresses doubt ("I think", "probably", "not sure")."""
    return _HEDGE.search(text, 0, len(text) if end is None else end) is not None


def negated(tokens: Sequence[Token], start: int) -> bool:
    """Whether the mention starting at tokens[start] is denied by an earlier word of its clause
    ("not X", "isn't X", "no X", "X, not Y", "rather than X")."""
    clause = tokens[start].clause
    i = start - 1
    while i >= 0 and tokens[i].clause == clause:
        word = tokens[i].norm
        if word in _NEGATORS:
            after = tokens[i + 1].norm if i + 1 < start else ""
            if not (word == "not" and after in _NOT_A_NEGATION_BEFORE):
                return True
        if i > 0 and (tokens[i - 1].norm, word) in _NEGATING_PAIRS:
            return True
        i -= 1
    return False


_Name = tuple[tuple[str, ...], "str | None", int]
"""(matching tokens, the exact text a code must match or None, owner): a plain tuple, which the
garbage collector stops tracking, so a run's many names cost no collection time."""


@dataclass(frozen=True, slots=True)
class Mention:
    """A name found in a reply: tokens [start, end) name `owner`."""

    start: int
    end: int
    owner: int
    negated: bool


@lru_cache(maxsize=1 << 18)
def name_tokens(name: str) -> tuple[tuple[str, ...], str | None]:
    """(matching tokens, code text or None) of a name; cached, so the true answers of a question
    reuse what their type's table worked out."""
    toks = tokenize(name)
    norms = tuple(t.norm for t in toks)
    if len(toks) == 1 and toks[0].word and len(toks[0].raw) <= CODE_MAX_CHARS:
        return norms, toks[0].raw
    if len(toks) > 1 and _PART_CODE.fullmatch(name):
        return norms, " ".join(t.raw for t in toks)  # "IT-IS" is no "it is"
    return norms, None


_PART_CODE = re.compile(r"[A-Z0-9]{1,3}(?:-[A-Z0-9]{1,3})+")
"""A code of several parts (ISO 3166-2's "IT-IS", "GB-ENG"): it matches only as written."""


_PLURALS = ("s", "es")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


class NameTable:
    """Names of some entities, looked up by their first token. A one-word name is also filed
    under its plural and singular forms (`_keys`), so a reply's word needs one look-up."""

    def __init__(self, names: Iterable[tuple[str, int]] = ()) -> None:
        self._by_first: dict[str, list[_Name]] = {}
        self._entries: list[_Name] = []
        self.size = 0
        self._last: tuple[tuple[Token, ...], list[tuple[int, int, int]]] | None = None
        self._words: frozenset[str] | None = None
        for name, owner in names:
            self.add(name, owner)

    def add(self, name: str, owner: int) -> None:
        """Add one name of entity `owner`, and its head when it ends in a qualifier in brackets
        ("Serbian Dinar (2002–2006)" is also "Serbian Dinar"). Names without tokens are ignored."""
        self._last = None
        self._words = None
        head = _QUALIFIER.sub("", name)
        for text in {name, head} if head.strip() else {name}:
            tokens, code = name_tokens(text)
            if tokens:
                entry = (tokens, code, owner)
                self._entries.append(entry)
                # a code matches only as written; a longer name's first word only as it is
                keys = _keys(tokens[0]) if len(tokens) == 1 and code is None else tokens[:1]
                for key in keys:
                    self._by_first.setdefault(key, []).append(entry)
                self.size += 1

    def names(self) -> Iterable[tuple[tuple[str, ...], int]]:
        """Every (tokens, owner) that is not a code."""
        for tokens, code, owner in self._entries:
            if code is None:
                yield tokens, owner

    def vocabulary(self) -> frozenset[str]:
        """Every word of the names that are not codes, worked out once (rules 22)."""
        if self._words is None:
            self._words = frozenset(w for tokens, _ in self.names() for w in tokens)
        return self._words

    def matches(self, tokens: Sequence[Token]) -> list[tuple[int, int, int]]:
        """Every (start, end, owner) where a name occurs in the tokens. The last answer for a
        tuple of tokens is kept: verifying one reply asks about the same tokens several times
        (the subject's names)."""
        last = self._last
        if last is not None and last[0] is tokens:
            return list(last[1])
        found = []
        by_first = self._by_first
        n = len(tokens)
        for i, tok in enumerate(tokens):
            for name in by_first.get(tok.norm, ()):
                end = i + len(name[0])
                if end <= n and _same(name, tokens, i):
                    found.append((i, end, name[2]))
        if isinstance(tokens, tuple):
            self._last = (tokens, found)
        return list(found)


class TableUnion(NameTable):
    """Several tables looked up as one, the i-th's names owned by ``owner(i)`` (their own
    owners ignored): a question's true objects, each one's table built once and shared by every
    question that has the object. Matches come in the order one table of all the names gives."""

    def __init__(self, parts: Sequence[NameTable], owner: Callable[[int], int]) -> None:
        super().__init__()
        self._parts = tuple(parts)
        self._owners = tuple(owner(i) for i in range(len(self._parts)))
        self.size = sum(part.size for part in self._parts)

    def add(self, name: str, owner: int) -> None:
        raise TypeError("a TableUnion is read-only: add to one of its tables")

    def names(self) -> Iterable[tuple[tuple[str, ...], int]]:
        for part, owner in zip(self._parts, self._owners, strict=True):
            for tokens, _ in part.names():
                yield tokens, owner

    def matches(self, tokens: Sequence[Token]) -> list[tuple[int, int, int]]:
        if len(self._parts) == 1:
            owner = self._owners[0]
            return [(start, end, owner) for start, end, _ in self._parts[0].matches(tokens)]
        found = [
            (start, end, owner)
            for part, owner in zip(self._parts, self._owners, strict=True)
            for start, end, _ in part.matches(tokens)
        ]
        found.sort(key=lambda m: m[0])  # stable: by token, then table, as one table files them
        return found


@lru_cache(maxsize=65536)
def _keys(word: str) -> tuple[str, ...]:
    """The word and its plural / singular forms, under which a one-word name is filed (a
    reply's word finds the name when each is in the other's forms: `_plural_pair`)."""
    singular = tuple(word[: -len(s)] for s in _PLURALS if word.endswith(s))
    return tuple(dict.fromkeys((word, *singular, *(word + s for s in _PLURALS))))


def _mixed_case(code: str) -> bool:
    """Whether a code has an upper-case letter first and a lower-case one after it ("Ksh")."""
    return code[:1].isupper() and any(c.islower() for c in code[1:])


def _same(name: _Name, tokens: Sequence[Token], start: int) -> bool:
    words, code, _ = name
    if code is not None:
        if len(words) > 1:
            return " ".join(t.raw for t in tokens[start : start + len(words)]) == code
        raw = tokens[start].raw
        # a code in lower case ("gas", "bcc") also opens a sentence with a capital ("Gas.");
        # rules 13: one in mixed case ("Ksh") matches another mixed-case form with its first
        # letter as written ("KSh"; not "KSH" or "LE", which may be codes of other things)
        return (
            raw == code
            or (code.islower() and raw == code.capitalize())
            or (
                _mixed_case(code)
                and _mixed_case(raw)
                and raw[:1] == code[:1]
                and raw[1:].casefold() == code[1:].casefold()
            )
        )
    last = len(words) - 1
    for k, want in enumerate(words):
        tok = tokens[start + k]
        if tok.norm == want:
            continue
        if k == last and tok.word and _plural_pair(tok.norm, want):
            continue
        return False
    return True


def _plural_pair(a: str, b: str) -> bool:
    """Whether one word is the other plus -s or -es ("euros" / "euro", "metal" / "metals")."""
    short, long = sorted((a, b), key=len)
    return any(long == short + s for s in _PLURALS)


def mentions(tokens: Sequence[Token], *tables: NameTable) -> list[Mention]:
    """Names of the tables found in the tokens, except those inside a longer mention; several
    owners of one span each get a mention."""
    spans = [m for table in tables for m in table.matches(tokens)]
    kept = []
    for start, end, owner in spans:
        inside = any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
        if not inside:
            kept.append(Mention(start, end, owner, negated(tokens, start)))
    return kept


GENERIC_MIN_ENTITIES = 3
GENERIC_MIN_SHARE = 0.03
"""A first word that begins names of this many entities of a type, and of this share of them,
is a generic word of it ("Mount" begins names of 27 of the 183 highest points, "Cerro" of 6;
no first word begins 3% of the places)."""


QUALIFIER_MAX_SHARE = 0.1
"""See `TypeNames._class_words`."""


def _generic_words(names: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The generic words of a type: the first words of names of several words that begin names
    of at least `GENERIC_MIN_ENTITIES` and `GENERIC_MIN_SHARE` of its entities ("Mount", "Pico",
    "Cerro", "Jabal" for the highest points), as the KG writes them; none for most types."""
    seen: dict[str, set[int]] = {}
    spelled: dict[str, str] = {}
    for i, own in enumerate(names):
        for name in own:
            words = name.split()
            if len(words) >= 2 and words[0].isalpha() and words[0][:1].isupper():
                key = words[0].casefold()
                seen.setdefault(key, set()).add(i)
                spelled.setdefault(key, words[0])
    return tuple(
        sorted(
            spelled[k]
            for k, where in seen.items()
            if len(where) >= max(GENERIC_MIN_ENTITIES, GENERIC_MIN_SHARE * len(names))
        )
    )


def _after_class_word(words: list[str]) -> list[str]:
    """A name of three words or more whose first word is a class word in another language
    before a particle ("Pic de Coma Pedrosa") or before a specific part that holds one
    ("Nevado Ojos del Salado"): the class word and the specific part ([] otherwise)."""
    if words[1].casefold() in PARTICLES and len(words) >= 3:
        return [words[0], *words[2:]]
    if any(w.casefold() in PARTICLES for w in words[2:-1]) and words[1][:1].isupper():
        return words
    return []


def _with_generic(
    names: AnswerNames,
    known: Sequence[str],
    generic: tuple[str, ...],
    nodes: dict[str, int],
    node: int,
) -> AnswerNames:
    """An entity of a kind no source names (not a country, currency, language, capital, time
    zone or person), of a type with generic words (`_generic_words`), is also named by its specific
    part with any generic word of the type ("Mount Elbrus" for "Gora El'brus", "Mount
    Aconcagua" for "Cerro Aconcagua") and, standing alone, by the specific part ("Aconcagua"):
    the part after the first word of a name of two words, or after a generic word; never a
    part that is a generic word or another entity's name."""
    folded_generic = {g.casefold() for g in generic}
    full: set[str] = set()
    short: set[str] = set()
    for name in known:
        words = name.split()
        if len(words) > 2 and words[0].casefold() not in folded_generic:
            words = _after_class_word(words)
        elif len(words) > 2 and words[1].casefold() in PARTICLES:
            words = [words[0], *words[2:]]  # "Pico de Teide": "Teide"
        if len(words) < 2:
            continue
        rest = " ".join(words[1:])
        folded = rest.casefold()
        if folded in folded_generic or nodes.get(folded, node) != node or len(rest) < 4:
            continue
        full.update(f"{g} {rest}" for g in generic)
        short.add(rest)
    own = {n.casefold() for n in known}
    full = {n for n in full if n.casefold() not in own}
    if not full and not short:
        return names
    return names._replace(
        names=tuple(sorted({*names.names, *full})), short=tuple(sorted({*names.short, *short}))
    )


class TypeNames:
    """Every entity name of a KG grouped by entity type, each type's table built once (on first
    use, or all at once with `build`) and kept for the run: the rivals an answer is told from."""

    def __init__(self, kg: KGIndex) -> None:
        self.kg = kg
        self._members: dict[str, list[int]] | None = None
        self._tables: dict[str, NameTable] = {}
        self._nodes: dict[str, dict[str, int]] = {}
        self._shared: dict[str, frozenset[str]] = {}
        self._generic: dict[str, tuple[str, ...]] = {}

    def build(self, entity_types: Iterable[str]) -> None:
        """Build the tables of these types now (a run does it before its first question), and
        load the sources of answer-only names when entities of these types have them."""
        types = list(entity_types)
        for entity_type in types:
            self.table(entity_type)
        assert self._members is not None or not types
        members = self._members or {}
        keys = self.kg.entity_keys
        if any(has_sources(keys[node]) for t in types for node in members.get(t, ())[:1]):
            warm()

    def answer_only(
        self, entity_type: str, groups: Sequence[Sequence[str]]
    ) -> tuple[AnswerNames, ...]:
        """The answer-only names (`kglens_tui.kg.answer_names`) of each true object, found by
        its names among the entities of its type (none for a name the KG no longer has)."""
        nodes = self._nodes.get(entity_type)
        if nodes is None:
            self.table(entity_type)
            assert self._members is not None
            kg = self.kg
            found: dict[str, int] = {}
            shared = set()
            for node in self._members.get(entity_type, ()):
                for name in kg.names(node):
                    folded = name.casefold()
                    if found.setdefault(folded, node) != node:
                        shared.add(folded)
            nodes = self._nodes[entity_type] = found
            self._shared[entity_type] = frozenset(shared)
            self._generic[entity_type] = self._class_words(entity_type)
        shared_names = self._shared[entity_type]
        generic = self._generic[entity_type]
        out = []
        for group in groups:
            at = next((nodes[n.casefold()] for n in group if n.casefold() in nodes), None)
            if at is None:
                out.append(AnswerNames())
                continue
            node = at
            # its own names, by which a kind no source covers is found in them (a place of
            # discovery "Spain"); not one another entity of its type has (the US state Georgia
            # beside the country)
            known = tuple(n for n in self.kg.names(node) if n.casefold() not in shared_names)
            names = answer_names(self.kg.entity_keys[node], self.kg.labels[node], known)
            key = self.kg.entity_keys[node]
            if generic and key.partition(":")[0] not in SOURCED_KINDS and key[:7] != "person:":
                names = _with_generic(names, known, generic, nodes, node)
            out.append(names)
        return tuple(out)

    def _class_words(self, entity_type: str) -> tuple[str, ...]:
        """The generic words of a type (`_generic_words`) when they are words of a class
        ("Mount", "Cerro"), not qualifiers: without them, at most `QUALIFIER_MAX_SHARE` of its
        names are another entity's name of the KG ("Mount Kenya"), where a qualifier leaves
        one ("British Honduras", "Central Asia"). () otherwise."""
        kg = self.kg
        assert self._members is not None
        members = self._members.get(entity_type, ())
        generic = _generic_words([kg.names(node) for node in members])
        if not generic:
            return ()
        folded = {g.casefold() for g in generic}
        every = {n.casefold() for node in range(len(kg.types)) for n in kg.names(node)}
        rests = [
            " ".join(words[1:]).casefold()
            for node in members
            for name in kg.names(node)
            if len(words := name.split()) >= 2 and words[0].casefold() in folded
        ]
        others = sum(rest in every for rest in rests)
        return generic if others <= QUALIFIER_MAX_SHARE * len(rests) else ()

    def table(self, entity_type: str) -> NameTable:
        """Labels and aliases of every entity of a type (owner: the node index)."""
        table = self._tables.get(entity_type)
        if table is None:
            if self._members is None:
                members: dict[str, list[int]] = {}
                for node, t in enumerate(self.kg.types):
                    members.setdefault(t, []).append(node)
                self._members = members
            kg = self.kg
            table = NameTable(
                (name, node)
                for node in self._members.get(entity_type, ())
                for name in kg.names(node)
            )
            self._tables[entity_type] = table
        return table
