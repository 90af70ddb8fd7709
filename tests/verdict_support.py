"""What the verifier tests share: a small table of capitals and the verdict of a reply to "What
is the capital of Australia?" against it."""

from __future__ import annotations

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict

CAPITALS = NameTable([("Canberra", 1), ("Sydney", 2), ("Melbourne", 3), ("Wellington", 4)])
CAPITAL = "What is the capital of Australia?"


def capital_verdict(reply: str) -> Verdict:
    """The verdict of ``reply`` to `CAPITAL`, Canberra true, the other `CAPITALS` rivals."""
    return check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL).verdict
