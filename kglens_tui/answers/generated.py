"""Checks on a question an LLM wrote in place of the template: one definition for the three modes
(KGLens's question generator, fact-eval's question writer, KONTEST's paraphraser).

A small generator often answers the prompt instead of following it ("Sure, I'd be happy to
help...", "I'm ready to assist. What's your question?"), asks something generic ("What is the
answer to this question?"), drops the subject, gives the answer away inside the question, or
writes a preamble instead of a statement ("Here's a possible sentence that describes the
triplet:"). Such a text is rejected and the run asks the template question instead; the reason
is kept in the question's generator field ("template (generated question rejected: REASON)"),
so every mode's report counts rejections by reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kglens_tui.answers.verify import mentions_any

_CHATTER = re.compile(
    r"^(?:sure|certainly|of course|here(?:'s| is| are)|i(?:'d| would| will| can|'m| am)|"
    r"as an ai|okay|ok|great|absolutely|question\s*:|statement\s*:|answer\s*:)\b",
    re.IGNORECASE,
)
_ASKS_FOR_INPUT = re.compile(
    r"\b(?:your|the)\s+(?:question|input|triplet|request)\b|\bwhat(?:'s| is) your\b|"
    r"\b(?:assist|help) (?:you|with)\b|\btriplet\b|\bpossible (?:sentence|question)\b",
    re.IGNORECASE,
)
_GENERIC = re.compile(
    r"\b(?:this|the|that) (?:question|statement|fact)\b|\bthe answer\b", re.IGNORECASE
)
MIN_WORDS = 4
"""A question shorter than this says too little to be about one fact."""


QUESTION, STATEMENT, BLANK = "question", "statement", "blank"
"""The forms an LLM-written text takes: a question (Wh or Yes/No), a true/false statement, a
fill-in-the-blank sentence with the mask."""


def rejection(
    text: str,
    *,
    subject_names: Sequence[str],
    asked_names: Sequence[str] = (),
    answer_names: Sequence[Sequence[str]] = (),
    form: str = QUESTION,
    mask: str = "",
) -> str:
    """Why an LLM-written text cannot stand in for the template one ("" when it can).

    `subject_names`: the subject's label and aliases, one of which the text must name;
    `asked_names`: for a Yes/No question or a statement, the names of the object asked about,
    which it must name too; `answer_names`: for a Wh question or a blank, every true object's
    names, none of which it may contain. ``form``: a single question; a statement (one
    sentence about the fact, no preamble, no question); a blank (one sentence with ``mask``).
    """
    text = text.strip()
    if form == QUESTION and (not text.endswith("?") or text.count("?") != 1):
        return "not a single question"
    if form != QUESTION and ("?" in text or text.endswith(":") or _sentences(text) != 1):
        return "not a single statement"
    if form == BLANK and text.count(mask) != 1:
        return "not a sentence with one blank"
    if _CHATTER.match(text) or _GENERIC.search(text) or _ASKS_FOR_INPUT.search(text):
        return "not a question about the fact" if form == QUESTION else "not about the fact"
    if len(text.split()) < MIN_WORDS:
        return "too short"
    if not mentions_any(text, subject_names, fuzzy=False):
        return "does not name the subject"
    if asked_names and not mentions_any(text, asked_names, fuzzy=False):
        return "does not name the object asked about"
    if any(mentions_any(text, names, fuzzy=False) for names in answer_names if names):
        return "gives the answer away"
    return ""


def _sentences(text: str) -> int:
    """How many sentences a text has (a full stop, ! or ? before a capital ends one)."""
    return 1 + len(re.findall(r"[.!?]\s+(?=[A-Z])", text.rstrip(".!? ")))


def rejected_source(reason: str) -> str:
    """The generator field of a question asked from the template because the LLM's was rejected
    (the same in every mode, so reports count rejections by reason)."""
    return f"template (generated question rejected: {reason})"
