"""Question templates in an imported predicates.jsonl: only the placeholders the question
factories fill, each of them, in a valid format string; anything else stops the import with one
line naming the file, the line and the field, and stores nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import KGImportError, import_kg
from kglens_tui.kg.templates import template_problem, templates_for
from kglens_tui.modes.facteval.plan import statement, wh_question
from kglens_tui.modes.kglens.config import Difficulty
from kglens_tui.modes.kglens.questions import QuestionFactory
from kglens_tui.modes.kontest.plan import paraphrases, third_phrasing

GOOD = {
    "yes_no": ["Is {object} the capital of {subject}?", "Does {subject} have {object}?"],
    "wh": "What is the capital of {subject}?",
    "statement": "The capital of {subject} is {object}.",
}

# case -> (templates of the predicate added on line 5, field named, words in the message)
BAD_TEMPLATES = {
    "unknown placeholder": (
        {"yes_no": ["Is {subject} {object} {bogus}?"]},
        "templates.yes_no[0]",
        "unknown placeholder '{bogus}': a Yes/No template may use only {subject} and {object}",
    ),
    "positional field": (
        {"yes_no": [GOOD["yes_no"][0], "{0}"]},
        "templates.yes_no[1]",
        "unknown placeholder '{0}'",
    ),
    "empty field": ({"wh": "What {} is {subject}?"}, "templates.wh", "unknown placeholder '{}'"),
    "attribute of a placeholder": (
        {"wh": "What {subject} {subject.__class__}?"},
        "templates.wh",
        "unknown placeholder '{subject.__class__}': a Wh template may use only {subject}",
    ),
    "index of a placeholder": (
        {"wh": "What is {subject[0]}?"},
        "templates.wh",
        "unknown placeholder '{subject[0]}'",
    ),
    "conversion": (
        {"yes_no": ["Is {subject!r} {object}?"]},
        "templates.yes_no[0]",
        "unknown placeholder '{subject!r}'",
    ),
    "format spec": (
        {"statement": "{subject:>40} is {object}."},
        "templates.statement",
        "unknown placeholder '{subject:>40}'",
    ),
    "closing brace before an opening one": (
        {"wh": "}{"},
        "templates.wh",
        "not a valid template (Single '}' encountered in format string)",
    ),
    "brace left open": (
        {"yes_no": ["Is {subject} in {object?"]},
        "templates.yes_no[0]",
        "not a valid template",
    ),
    "escaped braces": (
        {"yes_no": ["Is {subject} in {{object}}?"]},
        "templates.yes_no[0]",
        "escaped braces",
    ),
    "Yes/No without its object": (
        {"yes_no": ["Is {subject} a capital?"]},
        "templates.yes_no[0]",
        "missing {object}: a Yes/No template needs {subject} and {object}",
    ),
    "Yes/No without its subject": (
        {"yes_no": ["Is {object} a capital?"]},
        "templates.yes_no[0]",
        "missing {subject}",
    ),
    "Wh naming the answer": (
        {"wh": "Is {object} the capital of {subject}?"},
        "templates.wh",
        "unknown placeholder '{object}': a Wh template may use only {subject}",
    ),
    "Wh without its subject": (
        {"wh": "What is the capital?"},
        "templates.wh",
        "missing {subject}: a Wh template needs {subject}",
    ),
    "statement without its object": (
        {"statement": "{subject} has a capital."},
        "templates.statement",
        "missing {object}: a statement needs {subject} and {object}",
    ),
    "yes_no not a list": (
        {"yes_no": "Is {subject} {object}?"},
        "templates.yes_no",
        "expected a list of strings",
    ),
    "a Yes/No template not a string": (
        {"yes_no": [GOOD["yes_no"][0], 7]},
        "templates.yes_no[1]",
        "expected a string with {subject} and {object}, got a number",
    ),
    "wh not a string": ({"wh": {"text": "x"}}, "templates.wh", "got an object"),
    "a misspelt kind": (
        {"yesno": ["Does {subject} like {object}?"]},
        "templates.yesno",
        "unknown template (known: yes_no, wh, statement)",
    ),
}


def dump(conn) -> list[str]:
    return list(conn.iterdump())


def _with_predicate(tiny_kg_dir: Path, tmp_path: Path, templates: dict) -> Path:
    d = tmp_path / "broken"
    shutil.copytree(tiny_kg_dir, d)
    row = {"id": "p9", "label": "p9", "templates": templates}
    with (d / "predicates.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
    return d


@pytest.mark.parametrize("case", sorted(BAD_TEMPLATES))
def test_a_bad_template_stops_the_import_with_one_line(
    conn, tiny_kg_dir: Path, tmp_path: Path, case: str
) -> None:
    templates, field, words = BAD_TEMPLATES[case]
    import_kg(conn, tiny_kg_dir, "tiny")
    before = dump(conn)
    d = _with_predicate(tiny_kg_dir, tmp_path, templates)
    with pytest.raises(KGImportError) as info:
        import_kg(conn, d, "broken")
    error = info.value
    assert (error.path, error.line, error.field) == (str(d / "predicates.jsonl"), 5, field)
    assert words in error.message, error.message
    assert str(error).startswith(f"{d / 'predicates.jsonl'}, line 5, field '{field}': ")
    assert "\n" not in str(error)
    assert dump(conn) == before


def test_the_cli_names_the_file_line_and_field(
    tiny_kg_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kglens_tui.cli.main import main
    from kglens_tui.store.connection import connect

    db = tmp_path / "w.db"
    d = _with_predicate(tiny_kg_dir, tmp_path, {"yes_no": ["Is {subject} {object} {bogus}?"]})
    assert main(["--db", str(db), "kg", "import", str(d), "--name", "t"]) == 2
    assert capsys.readouterr().err == (
        f"error: {d / 'predicates.jsonl'}, line 5, field 'templates.yes_no[0]': unknown "
        "placeholder '{bogus}': a Yes/No template may use only {subject} and {object}\n"
    )
    assert connect(db).execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0


def test_good_templates_are_stored_and_fill_every_brace(
    conn, tiny_kg_dir: Path, tmp_path: Path
) -> None:
    """Accepted templates come out of every question factory with no brace left."""
    d = _with_predicate(tiny_kg_dir, tmp_path, GOOD)
    with (d / "triples.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"subject": "c:AT", "predicate": "p9", "object": "city:vienna"}\n')
    import_kg(conn, d, "good")
    kg = load_kg(conn, "good")
    p = kg.pred_keys.index("p9")
    assert kg.pred_templates[p] == GOOD
    positions = np.flatnonzero(kg.p == p)
    (e,) = positions.tolist()
    s, o = int(kg.s[e]), int(kg.o[e])
    made = QuestionFactory(kg, positions, Difficulty.HARD, seed=0)
    texts = [made.make(0, slot, it).text for it in range(30) for slot in range(2)]
    texts += [statement(kg, s, p, "[MASK]"), wh_question(kg, s, p)]
    texts += [*paraphrases(kg, s, p, o), third_phrasing(kg, s, p, o)]
    assert {t for t in texts if "{" in t or "}" in t} == set()
    assert {"What is the capital of Austria?", "Does Austria have Vienna?"} <= set(texts)


@pytest.mark.parametrize(
    "label", ["capital", "shares border with", "located in", "{subject} of {0}", "}{", "a {{b}}"]
)
def test_default_templates_are_valid_templates(label: str) -> None:
    """What a predicate without templates gets passes the same check, braces in its label or
    not (they become parentheses)."""
    t = templates_for(label)
    for text in t["yes_no"]:
        assert template_problem(text, "yes_no") is None, text
    assert template_problem(t["wh"], "wh") is None, t["wh"]
    assert template_problem(t["statement"], "statement") is None, t["statement"]
