"""People's names: titles, initials, surnames alone, middle names a reply adds, patronymics and
romanisations of one name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from kglens_tui.answers.mentions import Mention, NameTable, Token, name_tokens
from kglens_tui.answers.words import NAME_NEIGHBOURS, normalize
from kglens_tui.kg.answer_names import PARTICLES, TITLES, AnswerNames

_SURNAME_MIN_CHARS = 6


@lru_cache(maxsize=4096)
def surnames(short: NameTable) -> NameTable:
    """The one-word short names (surnames) of at least `_SURNAME_MIN_CHARS` letters, whose near
    spellings name the person where they stand alone ("Zelensky" for Zelenskyy); rules 11: also
    a one-word title before such a word ("King Abdulla" for King Abdallah)."""
    return NameTable(
        (" ".join(alias), owner)
        for alias, owner in short.names()
        if len(alias[-1]) >= _SURNAME_MIN_CHARS
        and alias[-1].isalpha()
        and (len(alias) == 1 or (len(alias) == 2 and alias[0] in TITLE_WORDS))
    )


def same_initials(window: Sequence[Token], alias: tuple[str, ...]) -> bool:
    """Whether the first and the last word start as the name's do (a misspelling keeps them:
    "Ouagadogou", "Kuala Lumpar"; "Burundi" is not "Urundi", "or metals" not "poor metals")."""
    if window[0].norm[:1] != alias[0][:1]:
        return False
    return len(window) == 1 or len(alias) == 1 or window[-1].norm[:1] == alias[-1][:1]


def same_title(window: Sequence[Token], alias: tuple[str, ...]) -> bool:
    """Whether the words keep the title of a title-and-name alias as written (rules 11: "King
    Abdulla" is near "King Abdallah"; "Maria X" is not "Mme X"; rules 18: a title of seven
    letters or more with up to two letters of another language's ending, "Presidenta",
    "Presidente")."""
    if len(alias) != 2 or alias[0] not in TITLE_WORDS:
        return True
    if len(window) != 2:
        return False
    word, title = window[0].norm, alias[0]
    return word == title or _ending_of(word, title)


def _ending_of(word: str, title: str) -> bool:
    """Whether ``word`` is ``title`` (seven letters or more) with up to two letters of another
    language's ending ("Presidenta", "Presidente")."""
    return (
        len(title) >= _TITLE_STEM_MIN_CHARS
        and word.startswith(title)
        and len(word) - len(title) <= _TITLE_ENDING_MAX_CHARS
    )


def _a_foreign_title(word: str) -> bool:
    """Rules 20: whether a word is a title word in another language's ending (`_ending_of`:
    "Presidente Pedro Sánchez"), which belongs to no name beside it."""
    return any(_ending_of(word, title) for title in TITLE_WORDS if title != word)


_TITLE_STEM_MIN_CHARS = 7


_TITLE_ENDING_MAX_CHARS = 2


_NAME_WORD = re.compile(r"[^\W\d_]+")


_PATRONYMIC_WORDS = frozenset({"bin", "ibn", "bint"})


_PATRONYMIC_MIN_WORDS = 3
"""A given name, "bin" and the father's name at least."""


def _consonants(word: str) -> str:
    """A word's consonants in Latin letters, a doubled one once, and its number of vowel runs
    ("Muhammad", "Mohamed": "mhmd3"; "Zayid", "Zayed": "zd1"; not "Sulaiman" for "Salman"): the
    skeleton Arabic names keep through their transliterations."""
    letters = [c for c in normalize(word) if c.isalpha()]
    runs = sum(
        1
        for k, c in enumerate(letters)
        if c in _VOWELS and (k == 0 or letters[k - 1] not in _VOWELS)
    )
    return f"{skeleton(''.join(letters))}{runs}"


_VOWELS = frozenset("aeiouy")


def _skeletons(text: str) -> list[tuple[str, int, int]]:
    """(consonants, start, end) of each word of a name, "Abd", "al" and the next word joined
    ("Abd al-Aziz", "Abdul Aziz" and "Abdulaziz" are one word, "bdlz")."""
    words = [(m[0], m.start(), m.end()) for m in _NAME_WORD.finditer(text)]
    out: list[tuple[str, int, int]] = []
    k = 0
    while k < len(words):
        word, start, end = words[k]
        joined = word
        while _consonants(joined)[:-1] in ("bd", "bdl") and k + 1 < len(words):
            k += 1
            joined += words[k][0]
            end = words[k][2]
        skeleton = _consonants(joined)
        out.append((skeleton, start, end))
        k += 1
    return out


def patronymic_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 20: the reply with a name written as a true Arabic name ("X bin Y ...") in another
    transliteration ("Mohamed bin Zayed" for Muhammad bin Zayid, "Salman bin Abdulaziz" for
    Salman bin Abd al-Aziz) written as the true name: the given name, "bin" and the father's
    name at least, each with the same consonants (`_skeletons`), in order; or None."""
    for group in true_answers:
        for name in group:
            if not _PATRONYMIC_WORDS & {w.casefold() for w in name.split()}:
                continue
            true = [s for s, _, _ in _skeletons(name)]
            words = _skeletons(reply)
            for i, (skeleton, start, _) in enumerate(words):
                if skeleton != true[0]:
                    continue
                n = 0
                while i + n < len(words) and n < len(true) and words[i + n][0] == true[n]:
                    n += 1
                if n >= _PATRONYMIC_MIN_WORDS:
                    return reply[:start] + name + reply[words[i + n - 1][2] :]
    return None


_AND = r"(and|&|und|et|y|e|og|och|en|i|a)"
""""And" in English and other languages a list of two people may be joined by."""
_KIN = r"(?:brothers|sisters|siblings|couple|family|spouses|cousins)"
"""Rules 24: words of kin after a family name ("the Elhuyar brothers")."""


def shared_surname_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 20: the reply with the surname two true people share written after each of their
    given names where the reply writes it once ("Marie and Pierre Curie", "Marie Curie &
    Pierre" are "Marie Curie and Pierre Curie"; rules 24: or before them, with a word of kin,
    and a break: "The Elhuyar brothers, Juan José and Fausto."), or None."""
    if len(true_answers) < 2:
        return None
    split = {
        (tuple(name.split()[:-1]), name.split()[-1])
        for group in true_answers
        for name in group
        if len(name.split()) >= 2
    }
    text = reply
    for given, surname in split:
        for other, same in split:
            if same != surname or other == given:
                continue
            first, second, last = map(re.escape, (" ".join(given), " ".join(other), surname))
            text = re.sub(
                rf"\b{first}\s+{_AND}\s+{second}\s+{last}\b",
                f"{' '.join(given)} {surname} \\1 {' '.join(other)} {surname}",
                text,
            )
            text = re.sub(
                rf"\b{first}\s+{last}\s+{_AND}\s+{second}\b(?!\s+[A-Z])",
                f"{' '.join(given)} {surname} \\1 {' '.join(other)} {surname}",
                text,
            )
            text = re.sub(  # rules 24: "The Elhuyar brothers, Juan José and Fausto."
                rf"(\b{last}\b(?:\s+{_KIN})?\s*[,:\u2014\u2013]\s*){first}\s+{_AND}\s+{second}\b"
                rf"(?!\s+[A-Z])",
                f"\\1{' '.join(given)} {surname} \\2 {' '.join(other)} {surname}",
                text,
            )
    return text if text != reply else None


_LONE_WORD = re.compile(r"\s*([^\W\d_]+)\s*[.!]?\s*")
"""A reply that is one word of letters, maybe with a full stop."""


_AS_CALLED = re.compile(
    r"\s*([^\W\d_]+)\s*,\s*as\s+(?-i:[a-z])[^\d.!?]*?\b(?:calls?|called|known)\b"
    r"(?:\s+(?-i:[a-z])[^\d.!?]*)?\s*[.!]?\s*",
    re.IGNORECASE,
)
"""Rules 20: one word, then a clause in lower case saying that is how people call the person
("Marcelo, as everyone calls him.", "Samia, as she is widely known."): the word alone."""


def given_name_alone(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    answer_only: Sequence[AnswerNames],
    rivals: NameTable | None,
) -> bool:
    """Rules 13: whether the reply is only a true person's given name (`AnswerNames.given`:
    "Anwar." for Anwar Ibrahim; rules 20: or that and how people call the person,
    `_AS_CALLED`) that no name of the rivals' table holds but a true one; rules 21: or only
    given names of true people so, listed (`_GIVEN_LIST`: "Marie and Pierre." for Marie and
    Pierre Curie). The rules' best reading, uncertain."""
    match = _LONE_WORD.fullmatch(reply) or _AS_CALLED.fullmatch(reply)
    if match is not None:
        words = [match[1]]
    elif _GIVEN_LIST.fullmatch(reply):
        words = [w for w in _LIST_SPLIT.split(reply.strip(" .!")) if w]
    else:
        return False
    return len({w.casefold() for w in words}) == len(words) and all(
        _a_given_name(w, true_answers, answer_only, rivals) for w in words
    )


_GIVEN_LIST = re.compile(
    r"\s*[^\W\d_]+(?:\s*,\s*[^\W\d_]+)*\s*,?\s+(?:and|&|et|und|y|e|i|og|och|en)\s+[^\W\d_]+"
    r"\s*[.!]?\s*",
    re.IGNORECASE,
)
"""Rules 21: words of letters listed with commas and "and" (or its word in other languages)."""
_LIST_SPLIT = re.compile(r"\s*,\s*|\s+(?:and|&|et|und|y|e|i|og|och|en)\s+", re.IGNORECASE)


def _a_given_name(
    text: str,
    true_answers: Sequence[Sequence[str]],
    answer_only: Sequence[AnswerNames],
    rivals: NameTable | None,
) -> bool:
    """Whether ``text`` is one word, a true person's given name that no name of the rivals'
    table holds but a true one."""
    word = name_tokens(text)[0]
    if len(word) != 1 or not any(
        name_tokens(g)[0] == word for names in answer_only for g in names.given
    ):
        return False
    true = {name_tokens(n)[0] for group in true_answers for n in group}
    return rivals is None or all(
        tokens in true for tokens, _ in rivals.names() if word[0] in tokens
    )


_MIDDLE_NAMES_MAX = 2


def middle_names(
    tokens: Sequence[Token],
    m: Mention,
    allowed: frozenset[str],
    pairs: frozenset[tuple[str, str]],
) -> tuple[int, int] | None:
    """The span of a person's two-word name with up to two middle names a reply adds ("Carl
    Gustaf Mosander" for Carl Mosander), where the short name ``m`` is the name's last word and
    nothing but the name's first word (rules 26: or another spelling of it) and capitalised
    words of two letters or more stand before it (none after it); None otherwise. Only for a
    name of two words: a middle name added to one that has its own ("George Walker Bush" for
    George H. W. Bush) may name another person."""
    if m.end - m.start != 1 or not pairs:
        return None
    last = tokens[m.start].norm
    clause = tokens[m.start].clause
    right = isolated(tokens, Mention(m.start, m.end, m.owner, m.negated), allowed, left=False)
    if right is None:
        return None
    for k in range(1, _MIDDLE_NAMES_MAX + 1):
        first = m.start - k - 1
        if first < 0:
            return None
        middle = tokens[first + 1 : m.start]
        if any(
            t.clause != clause
            or not t.word
            or not t.raw[:1].isupper()
            or len(t.norm) < 2
            or t.norm in NAME_NEIGHBOURS
            or t.norm in TITLE_WORDS
            for t in middle
        ):
            return None
        head = tokens[first]
        if head.clause == clause and _first_of_pair(head.norm, last, pairs):
            before = tokens[first - 1] if first > 0 else None
            if (
                before is not None
                and before.clause == clause
                and before.raw[:1].isupper()
                and before.norm not in NAME_NEIGHBOURS | TITLE_WORDS
            ):
                return None  # another name before it
            return first, right[1]
    return None


@lru_cache(maxsize=4096)
def _first_of_pair(word: str, last: str, pairs: frozenset[tuple[str, str]]) -> bool:
    """Whether ``word`` is the first word of a two-word true name whose last word is ``last``,
    or (rules 26) another spelling of it (`_spelled_like`: "Johan August Arfwedson" for Johann
    Arfwedson)."""
    return (word, last) in pairs or any(
        second == last and _spelled_like(word, frozenset({first})) for first, second in pairs
    )


def two_word_names(groups: tuple[tuple[str, ...], ...]) -> frozenset[tuple[str, str]]:
    """(first word, last word) of each true name of two words, no particle among them."""
    out = set()
    for group in groups:
        for name in group:
            words = name_tokens(name)[0]
            if len(words) == 2 and not set(words) & PARTICLES:
                out.add((words[0], words[1]))
    return frozenset(out)


def isolated(
    tokens: Sequence[Token], m: Mention, allowed: frozenset[str], *, left: bool = True
) -> tuple[int, int] | None:
    """Whether a short name ("Macron", "King Salman") stands alone: the capitalised words and
    name particles right around it in its clause are words of the true answer's names
    ("Donald Trump" for Donald J. Trump) or their other spellings (`_spelled_like`), none of
    another name ("Brigitte Macron"): the span of the name with those words, or None. Without
    ``left`` only the words after it are looked at. Rules 21: an office a title names ends the
    words before it (`_ends_an_office`)."""
    clause = tokens[m.start].clause
    span = [m.start, m.end]
    sides = ((-1, m.start - 1), (1, m.end)) if left else ((1, m.end),)
    for step, i in sides:
        while 0 <= i < len(tokens) and tokens[i].clause == clause and tokens[i].word:
            tok = tokens[i]
            particle = tok.norm in PARTICLES
            if not (particle or tok.raw[:1].isupper()) or (
                not particle
                and (
                    tok.norm in NAME_NEIGHBOURS
                    or tok.norm in TITLE_WORDS
                    or _a_foreign_title(tok.norm)
                )
            ):
                break
            if tok.norm not in allowed and not _spelled_like(tok.norm, allowed):
                if step < 0 and _ends_an_office(tokens, i):
                    break
                return None
            if step < 0:
                span[0] = i
            else:
                span[1] = i + 1
            i += step
    return span[0], span[1]


_OFFICE_LINKS = frozenset({"of", "del", "de", "du", "des", "di", "della", "do", "da", "dos"})
"""Words that join a title to what it is of ("President of the Government", "Presidente del
Gobierno")."""
_OFFICE_ARTICLES = frozenset({"the", "la", "el", "le", "il", "lo", "los", "las"})


def _ends_an_office(tokens: Sequence[Token], i: int) -> bool:
    """Rules 21: whether the capitalised word ``i`` ends an office a title names: it follows a
    joining word (`_OFFICE_LINKS`), an article or none, and a title word of `TITLES` or one with
    another language's ending ("Presidente del Gobierno Pedro Sánchez", "President of the
    Government Pedro Sánchez"): a title, no other name, stands before the person's."""
    clause = tokens[i].clause
    j = i - 1
    if j >= 0 and tokens[j].norm in _OFFICE_ARTICLES:
        j -= 1
    if j < 1 or tokens[j].norm not in _OFFICE_LINKS or tokens[j].raw[:1].isupper():
        return False
    title = tokens[j - 1]
    return title.clause == clause and (title.norm in TITLE_WORDS or _a_foreign_title(title.norm))


TITLE_WORDS = frozenset(w for title in TITLES for w in title.split())
"""Words of titles, which belong to no name ("Prime Minister Benjamin Netanyahu")."""


_SHORT_FORM_MIN_CHARS = 3


def _spelled_like(word: str, allowed: frozenset[str]) -> bool:
    """Whether a word is another spelling of a word of the true names: the same first letter
    and at least 0.8 alike ("Benjamin" for "Benyamin" Netanyahu), at least four letters; or
    (rules 13) its short form, its first `_SHORT_FORM_MIN_CHARS` letters or more ("Chris" for
    Christopher, beside the surname)."""
    if len(word) >= _SHORT_FORM_MIN_CHARS and any(
        len(w) > len(word) and w.startswith(word) for w in allowed
    ):
        return True
    return len(word) >= 4 and any(
        w[:1] == word[:1]
        and len(w) >= 4
        and (
            (ratio := SequenceMatcher(None, word, w).ratio()) >= 0.8
            or (ratio >= _SKELETON_RATIO and skeleton(word) == skeleton(w))
        )
        for w in allowed
    )


_SKELETON_RATIO = 0.7


def skeleton(word: str) -> str:
    """Rules 18: a word's consonants in order, a doubled one once: romanisations of one name
    differ in their vowels and doubled letters ("Mohammed", "Muhammad": "mhmd")."""
    out: list[str] = []
    for c in word:
        if c not in _VOWELS and (not out or out[-1] != c):
            out.append(c)
    return "".join(out)
