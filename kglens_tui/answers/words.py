"""What every reading of a reply shares: the matcher's folding of names, the true answers' name
tables, clause splitting and the word lists several readings consult."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from kglens_tui.answers.mentions import (
    Mention,
    NameTable,
    TableUnion,
    Token,
    clean_quotes,
    name_tokens,
    tokenize,
)

_CLAUSE_SPLIT = re.compile(r"[.!?;,\n]+\s*|\s+\bbut\b\s*", re.IGNORECASE)


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Lower-case, strip accents, turn punctuation into spaces and collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", clean_quotes(text))
    no_marks = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = no_marks.casefold().replace("'", "").replace("&", " and ")
    return " ".join(re.sub(r"[^\w]+|_", " ", folded).split())


@lru_cache(maxsize=4096)
def truth_table(true_answers: tuple[tuple[str, ...], ...]) -> NameTable:
    """The true objects' names; owner -1 - i for the i-th object (`_names_table`)."""
    return TableUnion([_names_table(names) for names in true_answers], lambda i: -1 - i)


@lru_cache(maxsize=16384)
def _names_table(names: tuple[str, ...]) -> NameTable:
    """One object's names (owner 0), tokenised once for every question it answers."""
    return NameTable((name, 0) for name in names)


def as_tuples(answers: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(group) for group in answers)


def split_clauses(reply: str) -> list[str]:
    return [c for c in _CLAUSE_SPLIT.split(reply) if c and c.strip()]


_SPEAKERS = frozenset({"we", "wed", "weve", "us", "our"})
"""Words by which the speaker, with others, says what they believe."""


ARTICLES = frozenset({"the", "a", "an"})


def subject_mentions(tokens: Sequence[Token], subject: tuple[str, ...]) -> list[Mention]:
    """Where the reply names the subject asked about."""
    if not subject:
        return []
    return [Mention(a, b, 0, False) for a, b, _ in truth_table((subject,)).matches(tokens)]


def subject_plurals(tokens: Sequence[Token], subject: tuple[str, ...]) -> list[tuple[int, int]]:
    """Rules 26: spans where the reply writes a name of the subject of two words or more with
    its last word in the plural ("two Kent Counties" of Kent County): the subject's kind, not
    another entity its first words name."""
    names = _long_names(subject)
    if not names:
        return []
    norms = [t.norm for t in tokens]
    said = set(norms)
    out = []
    for words in names:
        if words[0] not in said:
            continue
        n = len(words)
        for i in range(len(norms) - n + 1):
            if (
                norms[i : i + n - 1] == list(words[:-1])
                and _singular(norms[i + n - 1]) == words[-1]
            ):
                out.append((i, i + n))
    return out


@lru_cache(maxsize=4096)
def _long_names(subject: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The word norms of the subject's names of two words or more, worked out once."""
    words = (tuple(t.norm for t in tokenize(name)) for name in subject)
    return tuple(w for w in words if len(w) >= 2)


def _singular(word: str) -> str:
    """An English plural's singular ("counties" county, "islands" island), or the word."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


FOREIGN_ARTICLES = frozenset(
    {"il", "lo", "les", "los", "las", "die", "das", "het", "os", "as", "um", "uma", "un", "una",
     "une", "ein", "eine", "en", "ett", "der", "dem"}
)  # fmt: skip
"""Articles of other languages, capitalised where they open a reply ("La peseta."; rules 20:
German "der", "dem")."""


NOT_NAMES = frozenset(
    {"sorry", "unknown", "none", "no", "yes", "hmm", "well", "okay", "ok", "i", "maybe",
     "perhaps", "probably", "thanks", "thank", "note", "answer", "n/a", "na", "it", "that",
     "pass", "skip", "dunno", "blank", "stumped", "idk"}
)  # fmt: skip


COPULAS = frozenset({"is", "was", "remains"})


NAME_NEIGHBOURS = frozenset(
    {"the", "a", "an", "is", "it", "he", "she", "his", "her", "its", "i", "and", "or", "in",
     "of", "as", "was", "has", "currently", "answer", "yes", "no", "mr", "mrs", "ms", "dr",
     "sir", "majesty", "highness", "excellency", "im", "id", "ill", "ive", "maybe", "perhaps",
     "possibly", "probably", "likely", "surely", "certainly", "definitely", "w", "we", "v",
     "ve"}
)  # fmt: skip
"""Capitalised words that belong to no name (a sentence may start with them; "I'd", "I'll";
rules 20: "in" of Polish, Czech, Slovak and Slovene, "W Warszawie")."""


@lru_cache(maxsize=4096)
def question_tokens(question: str) -> tuple[Token, ...]:
    """A question's tokens, worked out once (a run asks each question many times)."""
    return tokenize(question)


SPEAKER = frozenset({"i", "me", "my", "myself", "im", "id", "ive", "ill"})
"""The speaker (rules 10): a sentence that holds back and speaks of the one replying tells what
the replier can say ("That's one I never memorised.", "It is beyond me."), not about the world."""


SPEAKING = SPEAKER | _SPEAKERS
"""The speaker's words, alone or with others."""


SENTENCES = re.compile(r"[.!?;\n]+")


@lru_cache(maxsize=4096)
def name_words(groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    """Every word of the true answers' names."""
    return frozenset(w for group in groups for name in group for w in name_tokens(name)[0])
