"""Rules 33: when the reading did not read a reply, its verdict is not sure. Hand rules for one
set's wording did not carry to the next (rules 30 to 32 each gained on their own set and nothing
on the next blind one); what does carry is knowing when a reply was not read: a verdict the rules
are unsure of goes to the run's judge or to a person, a confidently wrong one silently corrupts
the model's rates. These checks only mark verdicts uncertain; they never change one."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence

from kglens_tui.answers.mentions import Mention, Token, has_hedge, tokenize
from kglens_tui.answers.words import normalize

_MIN_WORDS, _MIN_UNREAD, _UNREAD_SHARE = 4, 3, 0.6
"""A sentence (at least this many words), of which at least this many, and this share, the
reading does not know (`unread_sentence`)."""


def unread_sentence(
    reply: str,
    found: Callable[[Sequence[Token]], Sequence[Mention]],
    english: frozenset[str],
    known: frozenset[str],
    asked: frozenset[str] = frozenset(),
) -> bool:
    """Rules 33: whether a reply in which the tables find no name (``found``: the mentions of
    true objects and rivals) is a sentence the reading does not read: at least four words, at
    least three and 60% of them words the reading does not know (no English closed-class word of
    ``english``, no word of ``known``, CLDR's English words of names, none of the question's
    words ``asked``, no adverb in "-ly"), no English closed-class word of two letters or more
    at all, no hedge, and no two capitalised words in a row (a name the tables lack: "Andrés
    Manuel del Río." stays sure) unless written in letters other than Latin ones. Such a reply says
    something, in another language, that the rules cannot judge ("Je ne dispose pas de données à
    jour pour répondre avec certitude.", "Xin lỗi, tôi không chắc chắn về câu trả lời.",
    "한국의 화폐 단위는 원입니다."): its verdict (incorrect, as no name was found) is uncertain."""
    tokens = tokenize(reply)
    words = [t for t in tokens if t.word]
    if len(words) < _MIN_WORDS:
        return False
    if any(len(t.raw) > 1 and (t.raw.casefold() in english or t.norm in english) for t in words):
        return False  # an English sentence ("I don't know, maybe Sydney?", "None — it's ...")
    unread = [
        t
        for t in words
        if t.norm not in english
        and t.norm not in known
        and t.norm not in asked
        and not t.norm.endswith("ly")
    ]
    if len(unread) < max(_MIN_UNREAD, _UNREAD_SHARE * len(words)):
        return False
    if _a_name_run(words) and not _other_letters(reply):
        return False  # a name the tables lack ("Muhammad bin Salman Al Saud.")
    if has_hedge(reply):
        return False
    return not found(tokens)


def _a_name_run(words: Sequence[Token]) -> bool:
    """Whether two words in a row are capitalised: a name ("Andrés Manuel del Río."), where a
    sentence capitalises its first word and maybe its nouns ("Dazu kann ich leider keine
    verlässliche Angabe machen.")."""
    return any(a.raw[:1].isupper() and b.raw[:1].isupper() for a, b in itertools.pairwise(words))


def _other_letters(text: str) -> bool:
    """Whether ``text`` has a letter of a script other than Latin ("한국의", "富士山")."""
    return any(c.isalpha() and "LATIN" not in unicodedata.name(c, "LATIN") for c in text)


def unread_script(reply: str, found: Callable[[Sequence[Token]], Sequence[Mention]]) -> bool:
    """Rules 33: whether a reply written (in part) in letters other than Latin ones is one in
    which the tables find no name at all (``found``): the reading knows the names of other
    scripts it has (CLDR's, the KG's, anyascii's Latin reading), so a reply in which it finds
    none says something it cannot read ("富士山（3,776 m）", "한국의 화폐 단위는 원입니다.",
    "Im3̄m (α-Fe)."): its verdict (incorrect, as no name was found) is uncertain."""
    return _other_letters(reply) and not found(tokenize(reply))


_BREAK = re.compile(r"[;—–(]")
"""Marks that end a part of a reply more strongly than a comma: a semicolon, a dash, an opening
bracket (`rival_after_a_break`)."""


def rival_after_a_break(
    reply: str, tokens: Sequence[Token], found: Sequence[Mention], subject: Sequence[str]
) -> bool:
    """Rules 34: whether a reply judged incorrect for naming a rival beside its true answer
    names the true answer first and every rival only after a break (a later sentence, or after
    a semicolon, a dash or an opening bracket): "Mount Everest; Kanchenjunga and Lhotse ... are
    the third and fourth highest.", "The lev, ... — the euro is coming.". The rival may be an
    aside the reading took for a second answer, so the verdict is not sure; a list that joins
    the rival to the answer ("Finnish, Swedish and Sami.") stays sure."""
    own = {normalize(n) for n in subject}
    named = [
        m
        for m in found
        if not m.negated
        and not (
            m.owner >= 0 and normalize(" ".join(t.raw for t in tokens[m.start : m.end])) in own
        )
    ]
    true = [m for m in named if m.owner < 0]
    rivals = [
        m
        for m in named
        if m.owner >= 0 and not any(t.start <= m.start and m.end <= t.end for t in true)
    ]
    if not true or not rivals:
        return False
    first = min(true, key=lambda m: m.start)
    if any(m.start < first.start for m in rivals):
        return False
    part = _parts(reply, len(tokens))
    if part is None:
        return False
    return all(
        tokens[m.start].sentence > tokens[first.start].sentence or part[m.start] > part[first.start]
        for m in rivals
    )


def _parts(reply: str, n: int) -> list[int] | None:
    """Per token of ``reply`` (``n`` of them), the index of the part it is in (parts end at
    `_BREAK`), or None when the parts' tokens are not the reply's."""
    out: list[int] = []
    for k, piece in enumerate(_BREAK.split(reply)):
        out += [k] * len(tokenize(piece))
    return out if len(out) == n else None
