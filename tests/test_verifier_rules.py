"""The verifier rules' version is bumped with every change of verdicts: the verdicts (and hedged
flags) today's verifier gives the 656 labelled bench replies are pinned to `VERIFIER_RULES`."""

from __future__ import annotations

import hashlib

from kglens_tui.bench.verifier_bench import DEFAULT_DATA, Rivals, load_cases, matcher_verdict
from kglens_tui.core.verdict import VERIFIER_RULES

VERDICTS_OF_RULES = {1: "03185be4ee23455fe6aa8a5a2ee39237f3536c576fbb9e476c5849ff641ea274"}
"""sha256 of the bench's verdicts under each rules version (add the new one when you bump)."""


def bench_fingerprint() -> str:
    cases = load_cases(DEFAULT_DATA)
    rivals = Rivals([c.kg for c in cases])
    digest = hashlib.sha256()
    for case in cases:
        checked = matcher_verdict(case, rivals)
        digest.update(f"{case.id}\t{checked.verdict.value}\t{int(checked.hedged)}\n".encode())
    return digest.hexdigest()


def test_a_change_of_verdicts_bumps_the_verifier_rules() -> None:
    assert bench_fingerprint() == VERDICTS_OF_RULES[VERIFIER_RULES], (
        "today's verifier gives the bench replies other verdicts than rules "
        f"{VERIFIER_RULES} did: bump VERIFIER_RULES (kglens_tui/core/verdict.py) and add the new "
        "fingerprint here, so stored runs say their verdicts are from an earlier verifier"
    )
