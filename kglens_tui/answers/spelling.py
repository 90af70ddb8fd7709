"""Names not written as the KG writes them: misspellings (a fuzzy match no rival is as close
to), inflected forms and derived forms ("Australian" for Australia)."""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from kglens_tui.answers.mentions import Mention, NameTable, Token, negated, tokenize
from kglens_tui.answers.people import isolated, same_initials, same_title
from kglens_tui.answers.words import NAME_NEIGHBOURS, normalize

FUZZY_THRESHOLD = 0.9


_FUZZY_MIN_CHARS = 5


_DERIVED_SUFFIXES = frozenset({"n", "an", "ian", "ns", "ans", "ese", "ish", "i", "ic", "ia"})


def _is_derived_form(window: str, alias: str) -> bool:
    """Whether one string is the other plus a demonym-like suffix (Dominica/Dominican)."""
    short, long = sorted((window, alias), key=len)
    return long.startswith(short) and long[len(short) :] in _DERIVED_SUFFIXES


def _derived_window(window: Sequence[Token], words: str, alias: tuple[str, ...], text: str) -> bool:
    """Whether the words, or their first or last word, are a derived form of the name rather than
    a misspelling of it ("Tajikistan is" is not "Tajikistani": it is the country and a verb)."""
    return (
        _is_derived_form(words, text)
        or _is_derived_form(window[0].norm, alias[0])
        or _is_derived_form(window[-1].norm, alias[-1])
    )


@lru_cache(maxsize=4096)
def fuzzy_names(truth: NameTable) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(tokens, text) of the true names long enough, and all letters, for fuzzy matching."""
    return tuple(
        (alias, " ".join(alias))
        for alias, _ in truth.names()
        if len("".join(alias)) >= _FUZZY_MIN_CHARS and all(a.isalpha() for a in alias)
    )


def _window_words(tokens: Sequence[Token], start: int, size: int, covered: set[int]) -> str | None:
    """The words of ``size`` tokens from ``start``, when they are words of one clause that no
    exact name covers; else None."""
    window = tokens[start : start + size]
    if any(t.clause != window[0].clause or not t.word for t in window):
        return None
    if covered.intersection(range(start, start + size)):
        return None
    return " ".join(t.norm for t in window)


@lru_cache(maxsize=4096)
def _fuzzy_by_initial(
    truth: NameTable,
) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """`fuzzy_names` by the first letter of their first word."""
    out: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for alias, text in fuzzy_names(truth):
        out.setdefault(alias[0][:1], []).append((alias, text))
    return {initial: tuple(names) for initial, names in out.items()}


def fuzzy_answer(
    tokens: Sequence[Token],
    truth: NameTable,
    rivals: NameTable | None,
    taken: list[Mention],
    *,
    deny: bool = True,
    alone: frozenset[str] | None = None,
) -> bool:
    """A near spelling of a true name ("Ouagadougouu") in words no exact name covers, which
    no rival name resembles as much, and (with ``deny``) which no negation denies; with
    ``alone`` (the words of the true names), one that stands alone (`isolated`)."""
    by_initial: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        if t.word:
            by_initial.setdefault(t.norm[:1], []).append(i)
    named = _fuzzy_by_initial(truth)
    candidates = [c for initial in by_initial for c in named.get(initial, ())]
    if not candidates:
        return False
    covered = {i for m in taken for i in range(m.start, m.end)}
    windows: dict[tuple[int, int], str | None] = {}
    for alias, text in candidates:
        n = len(alias)
        for size in {max(n - 1, 1), n, n + 1}:
            for start in by_initial[alias[0][:1]]:
                if start + size > len(tokens):
                    break
                key = (start, size)
                if key not in windows:
                    windows[key] = _window_words(tokens, start, size, covered)
                words = windows[key]
                if words is None:
                    continue
                window = tokens[start : start + size]
                if not same_initials(window, alias) or not same_title(window, alias):
                    continue
                score = similarity(words, text)
                if score < FUZZY_THRESHOLD or _derived_window(window, words, alias, text):
                    continue
                if (deny and negated(tokens, start)) or rival_as_close(
                    words, score, rivals, {name for name, _ in truth.names()}
                ):
                    continue
                if alone is not None and not isolated(
                    tokens, Mention(start, start + size, -1, False), alone
                ):
                    continue
                return True
    return False


_INFLECTED_MIN_CHARS = 8


_ENDING_MAX_CHARS = 1


_NEW_ENDING_MAX_CHARS = 2
"""Rules 20: the name's last letter may give way to two ("Warszawie", the Polish locative of
Warszawa)."""


@lru_cache(maxsize=4096)
def _latin_words(truth: NameTable) -> dict[str, tuple[str, ...]]:
    """Rules 18: the true names (answer-only names among them) of one word in plain Latin
    letters once folded, at least `_INFLECTED_MIN_CHARS` long, by their first five letters."""
    out: dict[str, list[str]] = {}
    for alias, _ in truth.names():
        word = alias[0]
        if (
            len(alias) == 1
            and word.isascii()
            and word.isalpha()
            and len(word) >= _INFLECTED_MIN_CHARS
        ):
            out.setdefault(word[:5], []).append(word)
    return {head: tuple(words) for head, words in out.items()}


def inflected_answer(
    tokens: Sequence[Token], truth: NameTable, rivals: NameTable | None, taken: list[Mention]
) -> bool:
    """Rules 18: whether a word no name covers, standing alone (no capitalised word beside it),
    is a true name of one word in Latin letters of `_INFLECTED_MIN_CHARS` letters or more with
    another last letter, or one more or less ("Warszawę", the Polish accusative of Warszawa;
    rules 20: or two for its last, "Warszawie";
    not "Colombo" for a "Colombia", nor "Dominican Republic" for a "Dominicana"), not negated,
    where no rival's name is as near."""
    words = _latin_words(truth)
    if not words:
        return False
    covered = {i for m in taken for i in range(m.start, m.end)}
    for i, tok in enumerate(tokens):
        word = tok.norm
        if i in covered or not tok.word or len(word) < _INFLECTED_MIN_CHARS:
            continue
        if any(
            0 <= k < len(tokens)
            and tokens[k].clause == tok.clause
            and tokens[k].word
            and tokens[k].raw[:1].isupper()
            and tokens[k].norm not in NAME_NEIGHBOURS
            for k in (i - 1, i + 1)
        ):
            continue  # a word of a longer name ("Dominican Republic")
        for name in words.get(word[:5], ()):
            if word == name or abs(len(word) - len(name)) > _ENDING_MAX_CHARS:
                continue
            stem = 0
            while stem < min(len(word), len(name)) and word[stem] == name[stem]:
                stem += 1
            if (
                len(name) - stem > _ENDING_MAX_CHARS
                or len(word) - stem > _NEW_ENDING_MAX_CHARS
                or negated(tokens, i)
            ):
                continue
            ratio = SequenceMatcher(None, word, name, autojunk=False).ratio()
            if rival_as_close(word, max(similarity(word, name), ratio), rivals, set()):
                continue  # rules 20: the plain ratio where _similarity rounds it to nought
            return True
    return False


_ONE_LETTER_MIN_CHARS = 8


def similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio; rules 12: a name of 8 letters or more with one letter changed
    ("Lyubljana") is as near as `FUZZY_THRESHOLD` however short; rules 24: so is one with two
    letters side by side swapped ("Vientaine" for Vientiane)."""
    if len(a) == len(b) >= _ONE_LETTER_MIN_CHARS:
        changed = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(changed) == 1 or _swapped(a, b, changed):
            return max(FUZZY_THRESHOLD, 1 - 1 / len(a))
    total = len(a) + len(b)
    if total and 2 * min(len(a), len(b)) / total < FUZZY_THRESHOLD:
        return 0.0  # too unlike in length (SequenceMatcher's real_quick_ratio, sooner)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < FUZZY_THRESHOLD:
        return 0.0
    return matcher.ratio()


def _swapped(a: str, b: str, changed: list[int]) -> bool:
    """Whether ``a`` and ``b`` differ only by two neighbouring letters in turn (``changed``:
    where they differ)."""
    return (
        len(changed) == 2
        and changed[1] == changed[0] + 1
        and a[changed[0]] == b[changed[1]]
        and a[changed[1]] == b[changed[0]]
    )


def rival_as_close(
    words: str, score: float, rivals: NameTable | None, true_names: set[tuple[str, ...]]
) -> bool:
    """Whether some other entity's name is at least as near to the words as the true name is."""
    if rivals is None:
        return False
    return any(
        similarity(words, " ".join(name)) >= score
        for name, _ in rivals.names()
        if name not in true_names
    )


_QUALIFYING_LAST = frozenset(
    {"south", "north", "east", "west", "central", "upper", "lower", "southeast", "southwest",
     "northeast", "northwest"}
)  # fmt: skip
"""Last words that tell one part of a named thing from another ("Kebnekaise South")."""
_HEAD_MIN_CHARS = 4


def names_a_head(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None,
    subject: Sequence[str],
) -> bool:
    """Rules 21: whether the reply is only the head of a true name that ends in a qualifier, a
    comma's tail or a compass word ("Washington." for "Washington, D.C.", "Kebnekaise." for
    "Kebnekaise South"), as people name it; not where the head is the subject's name or starts
    a name of a rival other than the answer's own (`_rival_starts`), or has fewer than
    `_HEAD_MIN_CHARS` letters. Uncertain (`check_wh`): another thing may have that name."""
    said = _folded(reply)
    if not said or said in {_folded(s) for s in subject}:
        return False
    for group in true_answers:
        own = {_folded(name) for name in group}
        for name in group:
            head, comma, _ = name.partition(",")
            words = name.split()
            if not comma and len(words) >= 2 and words[-1].casefold() in _QUALIFYING_LAST:
                head = " ".join(words[:-1])
            elif not comma:
                continue
            if (
                _folded(head) == said
                and len(said.replace(" ", "")) >= _HEAD_MIN_CHARS
                and (rivals is None or _rival_starts(rivals, said) <= own)
            ):
                return True
    return False


def _folded(text: str) -> str:
    """A name as its tokens' normal forms, joined by spaces."""
    return " ".join(t.norm for t in tokenize(text))


@lru_cache(maxsize=16)
def _rival_names_by_first(rivals: NameTable) -> dict[str, list[tuple[str, ...]]]:
    """The rivals' names (tokens' normal forms) by their first word."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for words, _ in rivals.names():
        out.setdefault(words[0], []).append(words)
    return out


def _rival_starts(rivals: NameTable, start: str) -> frozenset[str]:
    """The rivals' names that ``start`` (tokens' normal forms joined by spaces) starts, a word
    or more ("washington" of "Washington County"), as their normal forms joined by spaces.
    Looked up by first word: a name's every start is never built (a name of thousands of
    words would take seconds)."""
    by_first = _rival_names_by_first(rivals)
    firsts = {start[:i] for i, ch in enumerate(start) if ch == " "} | {start}
    found = set()
    for first in firsts & by_first.keys():
        for words in by_first[first]:
            text = ""
            for k, word in enumerate(words):
                text = word if k == 0 else f"{text} {word}"
                if len(text) >= len(start):
                    if text == start:
                        found.add(" ".join(words))
                    break
    return frozenset(found)


def split_name(tokens: Sequence[Token], groups: tuple[tuple[str, ...], ...]) -> bool:
    """Rules 24: whether the reply writes a one-word true name as two capitalised words
    ("George Town." for Georgetown): two such words are a name of their own (George Town is the
    Cayman Islands' capital), which no table may have, so a near spelling so read is uncertain."""
    one_word = {normalize(n) for group in groups for n in group if " " not in n.strip()}
    return any(
        a.word
        and b.word
        and a.clause == b.clause
        and a.raw[:1].isupper()
        and b.raw[:1].isupper()
        and a.norm + b.norm in one_word
        for a, b in zip(tokens, tokens[1:], strict=False)
    )
