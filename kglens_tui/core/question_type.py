"""A question's type: the one vocabulary the modes, the store, the targets and the screens share
(stored as its value in `observation.qtype` and the modes' rows)."""

from __future__ import annotations

from enum import StrEnum


class QuestionType(StrEnum):
    """Yes/No (a candidate object to confirm) or Wh (an open question the verifier reads)."""

    YES_NO = "yes_no"
    WH = "wh"


YES_NO = QuestionType.YES_NO
WH = QuestionType.WH
