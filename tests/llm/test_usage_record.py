"""One usage record: a reply's tokens, latency, retries and error live in `Usage` alone, and the
counts of requests in `Counters` alone; no other type of the package declares those fields."""

from __future__ import annotations

import ast
import unicodedata
from pathlib import Path

import kglens_tui
from kglens_tui.llm.base import Completion, LLMError
from kglens_tui.llm.usage import Counters, Usage, UsageLedger
from kglens_tui.store.target_usage import COLUMNS

PACKAGE = Path(kglens_tui.__file__).parent
USAGE_FIELDS = frozenset(
    {"prompt_tokens", "completion_tokens", "latency_ms", "latency_s", "retries", "tokens"}
)
"""What a reply's usage or a count of requests is made of."""
ALLOWED = {
    ("llm/usage.py", "Usage"): "the one usage record of a reply",
    ("llm/usage.py", "Counters"): "the one count of requests",
    ("llm/base.py", "Completion"): "what a chat client returns (a plugin's builds it); "
    "`Usage.of` reads it",
    ("llm/pricing.py", "Estimate"): "a cost estimate before a run: prompt tokens per request",
    ("bench/engine_bench.py", "ThroughputResult"): "the loopback server's set latency",
}


def _declared(tree: ast.Module) -> dict[str, set[str]]:
    """Per class of a module: the names it declares as annotated fields."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                s.target.id
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    return out


def test_no_type_but_usage_and_counters_declares_usage_fields() -> None:
    found, read = {}, 0
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        source = path.read_text(encoding="utf-8")
        # a field of one of these names has the name in its source (Python reads identifiers
        # NFKC-normalised); a module without any is not parsed
        normalised = unicodedata.normalize("NFKC", source)
        if not any(name in normalised for name in USAGE_FIELDS):
            continue
        read += 1
        for name, fields in _declared(ast.parse(source)).items():
            if fields & USAGE_FIELDS and (where, name) not in ALLOWED:
                found[f"{where}:{name}"] = sorted(fields & USAGE_FIELDS)
    assert read >= len(ALLOWED)  # at least the allowed declarations' modules were parsed
    assert found == {}, f"embed a `Usage` (a reply) or a `Counters` (counts) instead: {found}"


def test_the_scan_sees_a_repeated_field() -> None:
    tree = ast.parse("class Row:\n    question: str\n    retries: int = 0\n")
    assert _declared(tree)["Row"] & USAGE_FIELDS == {"retries"}


def test_a_reply_usage_from_a_completion_and_from_a_failure() -> None:
    answered = Usage.of(Completion("Yes.", 12, 3, 0.25, retries=1))
    assert answered == Usage(12, 3, 250.0, 1, "")
    assert not answered.failed
    failed = Usage.failure(LLMError("timeout", "no reply in 30 s", retries=2))
    assert failed == Usage(retries=2, error="timeout: no reply in 30 s")
    assert failed.failed and failed.latency_ms is None
    assert dict(zip(Usage.COLUMNS, failed.values(), strict=True))["error"] == failed.error


def test_counters_count_replies_and_keep_the_stored_order() -> None:
    c = Counters()
    c = c.plus_one(Usage(10, 2, 100.0, 1), failed=False)
    c = c.plus_one(Usage(retries=3, error="server: HTTP 500"), failed=True)
    c = c.plus_one(Usage(5, 1, 50.0), failed=True)  # answered, but its verification failed
    assert c == Counters(requests=3, errors=2, retries=4, prompt_tokens=15, completion_tokens=3)
    assert c == Counters.of(
        [
            (Usage(10, 2, 100.0, 1), False),
            (Usage(retries=3, error="server: HTTP 500"), True),
            (Usage(5, 1, 50.0), True),
        ]
    )
    assert (c.answered, c.tokens) == (1, 18)
    dropped = Counters(requests=2, dropped=2)
    assert (c + dropped) - dropped == c
    assert (c + dropped).answered == 1, "a dropped request is neither answered nor failed"
    assert dict(zip(COLUMNS, (c + dropped).values(), strict=True)) == {
        "requests": 5,
        "errors": 2,
        "retries": 4,
        "prompt_tokens": 15,
        "completion_tokens": 3,
        "dropped": 2,
    }


def test_the_helper_ledger_counts_calls_and_moves_them_when_committed() -> None:
    ledger = UsageLedger()
    ledger.record("judge", Completion("yes", 30, 1, 0.1))
    ledger.record("judge", None)
    ledger.record("generator", Completion("Is Vienna in Austria?", 40, 6, 0.2))
    ledger.reject("generator")
    assert ledger.pending == {
        "judge": Counters(requests=2, errors=1, prompt_tokens=30, completion_tokens=1),
        "generator": Counters(requests=1, errors=1, prompt_tokens=40, completion_tokens=6),
    }
    taken = ledger.take()
    assert ledger.pending == {} and ledger.stored == taken
    ledger.record("judge", Completion("no", 20, 1, 0.1))
    totals = ledger.totals()
    assert list(totals) == ["generator", "judge"], "in role order"
    assert totals["judge"] == Counters(requests=3, errors=1, prompt_tokens=50, completion_tokens=2)
    assert (ledger.requests, ledger.tokens) == (4, 98)
