"""Checks on a question an LLM wrote in place of the template (the paper's question generator).

A small generator often answers the prompt instead of following it ("Sure, I'd be happy to
help..."), asks something generic ("What is the answer to this question?"), drops the subject, or
gives the answer away inside the question. Such a question is rejected and the run asks the
template question instead; the reason is kept in the question's generator field, so reports can
count rejections.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kglens_tui.probe.verify import mentions_any

_CHATTER = re.compile(
    r"^(?:sure|certainly|of course|here(?:'s| is| are)|i(?:'d| would| will| can)|as an ai|"
    r"okay|ok|great|absolutely|question\s*:)\b",
    re.IGNORECASE,
)
_GENERIC = re.compile(
    r"\b(?:this|the|that) (?:question|statement|fact)\b|\bthe answer\b", re.IGNORECASE
)
MIN_WORDS = 4
"""A question shorter than this says too little to be about one fact."""


def rejection(
    text: str,
    *,
    subject_names: Sequence[str],
    asked_names: Sequence[str] = (),
    answer_names: Sequence[Sequence[str]] = (),
) -> str:
    """Why a generated question cannot stand in for the template one ("" when it can).

    `subject_names`: the subject's label and aliases, one of which the question must name;
    `asked_names`: for a Yes/No question, the names of the object asked about, which it must
    name too; `answer_names`: for a Wh question, every true object's names, none of which it
    may contain.
    """
    if not text.endswith("?") or text.count("?") != 1:
        return "not a single question"
    if _CHATTER.match(text) or _GENERIC.search(text):
        return "not a question about the fact"
    if len(text.split()) < MIN_WORDS:
        return "too short"
    if not mentions_any(text, subject_names, fuzzy=False):
        return "does not name the subject"
    if asked_names and not mentions_any(text, asked_names, fuzzy=False):
        return "does not name the object asked about"
    if any(mentions_any(text, names, fuzzy=False) for names in answer_names if names):
        return "gives the answer away"
    return ""
