"""The verifier rules' version is bumped with every change of verdicts: the verdicts (and hedged
flags) today's matcher gives the 1054 labelled bench replies, and the scores fact-eval's scorers
give the same replies as short answers, multiple choice and true/false, are pinned to
`VERIFIER_RULES`."""

from __future__ import annotations

import hashlib

from kglens_tui.bench.verifier_bench import DEFAULT_DATA, Rivals, load_cases, matcher_verdict
from kglens_tui.core.question_type import WH
from kglens_tui.core.verdict import VERIFIER_RULES
from kglens_tui.modes.facteval.scoring import score_mcq, score_saq, score_tfq

VERDICTS_OF_RULES = {
    9: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    10: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    11: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    12: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    13: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    14: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    15: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    16: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    17: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    18: "f07665335cc99c832a39d34abfc8c30e69bbd71b9d9ca1088107e25100b2e3a6",
    19: "a3fae848aad64c8b768f04a5daa31efc86d38790e4391f6c21fc82821f950dff",
    20: "a3fae848aad64c8b768f04a5daa31efc86d38790e4391f6c21fc82821f950dff",
    21: "a3fae848aad64c8b768f04a5daa31efc86d38790e4391f6c21fc82821f950dff",
    22: "a3fae848aad64c8b768f04a5daa31efc86d38790e4391f6c21fc82821f950dff",
    23: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    24: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    25: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    26: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    27: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    28: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    29: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    30: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    31: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    32: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    33: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    34: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    35: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    36: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    37: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
    38: "603aa0546c20b071eb2215326dc49a3a4c73f830777aa2da3aa48e5d3182c061",
}
"""sha256 of the bench's verdicts under the current rules (replace it when you bump). Rules 8
to 18 give the bench's replies the verdicts rules 7 gave (they change verdicts of the
held-out sets' replies: docs/verdicts.md); rules 19 give them the same matcher verdicts, and
fact-eval's scorers abstain on "I'm drawing a blank." (k340), now a refusal's words, where they
scored it incorrect and unparseable; rules 20 give the bench's replies rules 19's verdicts and
scores (they change verdicts of the ordinary and held-out sets' replies), and so do rules 21
and 22 (which also mark more replies uncertain: the fingerprint holds verdicts and hedges);
rules 23 judge four SmolLM2 replies that name a true object in no answering role incorrect
(c053, c062, c160: "The United Nations (UN) is a member of the United Nations."; c089); rules
24 give the bench's replies rules 23's verdicts and scores (they change verdicts of the held-out
and ordinary sets' replies: docs/verdicts.md, "Rules 24"), and so do rules 25 (h060 "..." is
marked uncertain, its verdict kept: docs/verdicts.md, "Rules 25"), rules 26, rules 27
(docs/verdicts.md, "Rules 27") and rules 28 (which mark three replies' +1 with their own area
code certain: docs/verdicts.md, "Rules 28"), rules 29 (docs/verdicts.md, "Rules 29"),
rules 30 (docs/verdicts.md, "Rules 30"), rules 31 (docs/verdicts.md, "Rules 31"), rules 32
(docs/verdicts.md, "Rules 32") and rules 33, which change no verdict and no hedge: they mark
sure verdicts of replies the reading did not read uncertain (docs/verdicts.md, "Rules 33"; the
fingerprint holds verdicts and hedges, not the uncertain mark: the bench's c142, c188 and c209,
SmolLM2 replies in Cyrillic judged incorrect, are now uncertain), and rules 34, which change
none either: they mark uncertain a sure "incorrect" given for a rival that the reply names only
after a break following its true answer (docs/verdicts.md, "Rules 34"; the bench's e028, e059 and
e085, SmolLM2 lists, are now uncertain); rules 35 give the bench's replies rules 34's verdicts
(GeoNames' names of capitals, "Edo", "Angora", change verdicts of the ordinary and held-out
sets' replies: docs/verdicts.md, "Rules 35"), and so do rules 36 (a candidate taken back in
doubt, a named candidate scratched, a name with its former name, a language joined by a letter:
docs/verdicts.md, "Rules 36"), and so do rules 37 (retraction cues per language:
docs/verdicts.md, "Rules 37"), and so do rules 38 (phrases of not knowing per language:
docs/verdicts.md, "Rules 38")."""


def bench_fingerprint() -> str:
    cases = load_cases(DEFAULT_DATA)
    rivals = Rivals([c.kg for c in cases])
    digest = hashlib.sha256()
    for case in cases:
        checked = matcher_verdict(case, rivals)
        line = [case.id, checked.verdict.value, str(int(checked.hedged))]
        if case.qtype == WH:
            answers = rivals.answers(case)
            table = rivals.table(case.kg, case.object_type)
            subject = rivals.subject(case)
            saq, named = score_saq(case.reply, answers, rivals=table, subject=subject)
            line += [
                f"{saq}/{named}",
                score_mcq(case.reply, answers, (), rivals=table, subject=subject),
            ]
        else:
            line.append(score_tfq(case.reply, "true" if case.expected == "yes" else "false"))
        digest.update(("\t".join(line) + "\n").encode())
    return digest.hexdigest()


def test_a_change_of_verdicts_bumps_the_verifier_rules() -> None:
    assert bench_fingerprint() == VERDICTS_OF_RULES[VERIFIER_RULES], (
        "today's verifier or fact-eval scorers give the bench replies other verdicts than rules "
        f"{VERIFIER_RULES} did: bump VERIFIER_RULES (kglens_tui/core/verdict.py) and put the new "
        "fingerprint here, so stored runs say their verdicts are from an earlier verifier"
    )
