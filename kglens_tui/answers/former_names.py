"""Rules 36: a reply that gives a name with its own former name ("Uhuru Peak, formerly
Kaiser-Wilhelm-Spitze.") names one thing by two names; where the tables know neither, the
reply names something they lack, not something wrong for sure."""

from __future__ import annotations

import re

FORMER_CUES = re.compile(
    r"\s*(?:[,(\u2014\u2013-]|\s)\s*(?:"
    r"(?:formerly|previously|once|earlier|also)\s+(?:known\s+as|called|named)|"
    r"known\s+(?:earlier|before|previously)\s+as|then\s+called|until\s+\d{4}|before\s+\d{4}|"
    r"formerly|previously|once|earlier|n[ée]e?|ex-)"
    r"\s*(?:as\s+)?",
    re.IGNORECASE,
)
"""The reading cues of a former name after a name: "formerly", "previously (called)", "once
known as", "né", "ex-", "until 1996", after a comma, a bracket or a dash."""


_NAME = re.compile(r"(?:the\s+)?[^\W\d_][\w'’.-]*(?:\s+(?:[^\W\d_][\w'’.-]*))*", re.IGNORECASE)


def _a_name(text: str) -> bool:
    """Whether ``text`` is a name alone: words that each open with a capital letter, particles
    of at most three lower-case letters between them ("Mount Stanley", "Cap de la Hague")."""
    words = text.split()
    return (
        bool(words)
        and len(words) <= 6
        and words[0][:1].isupper()
        and all(w[:1].isupper() or (w.islower() and len(w) <= 3) for w in words)
    )


def named_with_former(reply: str) -> bool:
    """Whether a reply is a name, then a former-name cue (`FORMER_CUES`) and another name, and
    nothing else ("Uhuru Peak, formerly Kaiser-Wilhelm-Spitze.", "Kibo (once called
    Kaiser-Wilhelm-Spitze)")."""
    text = reply.strip().rstrip(".!)").strip()
    for split in re.finditer(r"[,(\u2014\u2013]|\s-\s", text):
        head = text[: split.start()].strip()
        cue = FORMER_CUES.match(text, split.start())
        if cue is None or not _a_name(head.removeprefix("The ").removeprefix("the ")):
            continue
        tail = text[cue.end() :].strip()
        if _a_name(tail) and _NAME.fullmatch(tail):
            return True
    return False
