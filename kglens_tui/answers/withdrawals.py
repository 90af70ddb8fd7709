"""Rules 36: a reply that names one candidate and then takes it back in doubt, giving no other
("Niamey... actually, I'm not certain. I'll leave it unanswered.", "Maybe 1821... actually I
don't know."): a careful reader reads no answer left, not a hedged one."""

from __future__ import annotations

import re

from kglens_tui.answers.mentions import clean_quotes
from kglens_tui.answers.refusals import GENERIC_OBJECT, NOT_KNOWING, NOT_SURE, declines_by_meaning

TAKING_BACK_FILLERS = frozenset(
    {"actually", "hmm", "hm", "um", "uh", "er", "erm", "wait", "well", "no", "oh", "honestly",
     "really", "on", "second", "thought", "thoughts", "hold", "hang"}
)  # fmt: skip
"""Words between a candidate and the doubt that marks it taken back: interjections and the
words of second thoughts ("actually", "hmm", "no, wait", "on second thought")."""


_OF_WHAT = GENERIC_OBJECT | {"about", "at", "all", "of", "on", "this", "so", "any", "more"}
"""Words that give "I'm not sure" or "I don't know" no object of its own ("about that", "at
all", "of it"): the doubt is about the candidate just named."""


_BREAK = re.compile(r"\s*(?:[.;!?\u2014\u2013\u2026]+|\s-\s|,)\s*")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.casefold())


def taken_back_in_doubt(rest: str) -> bool:
    """Whether ``rest``, what follows a reply's lone first candidate, takes it back: only
    interjections or second thoughts (`TAKING_BACK_FILLERS`), then "I'm not sure" or "I don't
    know" with no object of its own, then either a clause that declines (`declines_by_meaning`:
    "I'd rather not guess", "I'll leave it unanswered", "I don't know") or, after "I don't
    know" and a filler before it, nothing ("actually I don't know."). "I'm not sure, though."
    or "I think, but I don't know for sure." take nothing back."""
    text = clean_quotes(rest)
    for pattern in (NOT_KNOWING, NOT_SURE):
        said = pattern.search(text)
        if said is None:
            continue
        before = _words(text[: said.start()])
        if any(w not in TAKING_BACK_FILLERS for w in before):
            continue
        after = text[said.end() :]
        stop = _BREAK.search(after)
        head = after[: stop.start()] if stop else after
        if any(w not in _OF_WHAT for w in _words(head)):
            continue
        tail = after[stop.end() :] if stop else ""
        if _words(tail):
            if declines_by_meaning(tail) or NOT_KNOWING.search(tail):
                return True
        elif pattern is NOT_KNOWING and before:
            return True
    return False
