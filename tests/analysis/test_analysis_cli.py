"""The headless commands: review, analyze, compare, triage, export, ego."""

from __future__ import annotations

import csv
import json
import re
import socket
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from analysis_support import RUN_A, RUN_B, edge_ids, import_mini, make_run, observation_id

from kglens_tui.analysis.groups import chance_of
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.answers.bias import Baseline
from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands.console, "width", 220)


@pytest.fixture
def db(tmp_path: Path) -> tuple[str, list[int], dict, int]:
    path = tmp_path / "cli.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    runs = [make_run(conn, RUN_A), make_run(conn, RUN_B, target="model-b")]
    ids = edge_ids(conn)
    wh = observation_id(conn, runs[0], 1, 2)
    conn.close()
    return str(path), runs, ids, wh


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_review_and_drilldown(db, capsys) -> None:
    path, (a, _), ids, _ = db
    code, out = run(capsys, "--db", path, "review", str(a), "--kind", "zero-sense")
    assert code == 0 and "Caledonia" in out and "Borduria" in out and "Aland" not in out
    code, out = run(capsys, "--db", path, "review", str(a), "--predicate", "currency")
    assert code == 0 and "Xdollar" in out and "Copolis" not in out
    code, out = run(capsys, "--db", path, "review", str(a), "--edge", str(ids["e7"]))
    assert code == 0 and "Hugo" in out and "PKG history" in out


def test_triage_commands_change_analyze(db, capsys, tmp_path: Path) -> None:
    path, (a, _), ids, wh = db
    code, out = run(capsys, "--db", path, "analyze", str(a), "--by", "predicate")
    assert code == 0 and "33.3% [9.7–70.0]" in out  # zero-sense 2 / 6 overall
    code, out = run(
        capsys,
        "--db",
        path,
        "triage",
        "verifier-error",
        str(wh),
        "--reason",
        "alias",
        "--author",
        "ann",
    )
    assert code == 0 and "triage entry 1 stored" in out
    code, out = run(capsys, "--db", path, "analyze", str(a), "--error-types")
    assert code == 0 and "16.7%" in out and "Self-contradiction" in out
    code, out = run(capsys, "--db", path, "analyze", str(a), "--raw")
    assert "as logged" in out and "33.3% [9.7–70.0]" in out
    assert run(capsys, "--db", path, "triage", "confirm", str(a), str(ids["e3"]))[0] == 0
    assert run(capsys, "--db", path, "triage", "tag", "factual-error", "--reply", str(wh))[0] == 0
    assert run(capsys, "--db", path, "triage", "note", "check", "--edge", str(ids["e3"]))[0] == 0
    code, out = run(
        capsys, "--db", path, "triage", "kg-error", "--edge", str(ids["e5"]), "--reason", "Ypound"
    )
    assert code == 0
    assert run(capsys, "--db", path, "triage", "retract", "1", "--reason", "undo")[0] == 0
    code, out = run(capsys, "--db", path, "triage", "log", "--run", str(a))
    assert code == 0 and "verifier_error" in out and "KG-wide" in out
    fixes = tmp_path / "fixes.csv"
    code, _ = run(capsys, "--db", path, "triage", "corrections", "mini", "--out", str(fixes))
    assert code == 0 and len(list(csv.DictReader(fixes.open()))) == 1
    code, out = run(capsys, "--db", path, "triage", "verifier-error", "99999", "--reason", "x")
    assert code == 2 and "no reply" in out


def _one_line_rows(out: str) -> dict[str, list[str]]:
    """The cells of each one-line row (and of the header) of a boxed table, by its first cell."""
    rows = {}
    for line in out.splitlines():
        if line.startswith(("│", "┃")):
            cells = [c.strip() for c in line.strip()[1:-1].replace("┃", "│").split("│")]
            rows[cells[0]] = cells
    return rows


def _chance_expected(path: str, run_id: int, adjusted: bool) -> dict[str, Baseline]:
    """`chance_of` over each predicate's run edges (KG-error edges left out when adjusted) and,
    as "all", over every such edge."""
    conn = connect(path)
    data = load_run_data(conn, run_id)
    keep = data.included(adjusted)
    preds = np.array([data.kg.pred_labels[int(data.kg.p[i])] for i in data.kg_pos])
    out = {
        label: chance_of(data, np.flatnonzero((preds == label) & keep), adjusted)
        for label in set(preds.tolist())
    }
    out["all"] = chance_of(data, np.flatnonzero(keep), adjusted)
    conn.close()
    return out


def test_analyze_gives_each_group_what_chance_scores_on_its_questions(
    db, capsys, tmp_path: Path
) -> None:
    """Beside each rate of each group and of the whole run, `analyze` shows (and `--csv`
    writes) what blind guessing scores on the questions the run asked about the group
    (`chance_of`), with the triage as the rates: capital's e3 (asked Yes/No and Wh, whose
    constant answer Apolis is wrong for it) marked as a KG error takes the capital chance from
    (1/4 + 0 + 0) / 3 = 8.3% to (1/4 + 0) / 2 = 12.5%, and --raw keeps it."""
    from kglens_tui.textfmt import pct

    path, (a, _), ids, _ = db
    fields = ("win_rate", "zero_sense", "all_sense")
    groups = tmp_path / "groups.csv"

    def analyze(*argv: str) -> dict[str, list[str]]:
        code, out = run(capsys, "--db", path, "analyze", str(a), *argv, "--csv", str(groups))
        assert code == 0
        rows = _one_line_rows(out)  # 220 columns: one line a group, chance after each rate
        head = rows["group"]
        assert head[3:9] == ["win", "chance", "zero-sense", "chance", "all-sense", "chance"]
        want = _chance_expected(path, a, adjusted="--raw" not in argv)
        with groups.open(newline="") as fh:
            written = {r["label"]: r for r in csv.DictReader(fh)}
        groups.unlink()
        assert set(want) == set(written) | {"all"}
        for label, chance in want.items():
            assert [rows[label][i] for i in (4, 6, 8)] == [pct(getattr(chance, f)) for f in fields]
            for metric, field in zip(("win", "zero_sense", "all_sense"), fields, strict=True):
                if label != "all":
                    cell = written[label][f"{metric}_chance"]
                    assert float(cell) == pytest.approx(getattr(chance, field))
        return rows

    assert analyze()["capital"][4] == pct(1 / 12)
    triage = ["triage", "kg-error", "--edge", str(ids["e3"]), "--reason", "wrong capital"]
    assert run(capsys, "--db", path, *triage)[0] == 0
    assert analyze()["capital"][4] == pct(1 / 8)
    assert analyze("--raw")["capital"][4] == pct(1 / 12)


@pytest.mark.parametrize("by", ["predicate", "subject", "group", "year"])
def test_analyze_at_80_columns_puts_one_rate_a_line_beside_its_chance(
    db, capsys, monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """At 80 columns no header is squeezed to "exami…" and no rate wraps: each group's three
    rates go one a line with their interval, their chance beside them, n and the Yes/No
    figures in their own column, every line within 80 cells."""
    from rich.cells import cell_len

    from kglens_tui.textfmt import pct

    monkeypatch.setattr(commands.console, "width", 80)
    path, (a, _), _, _ = db
    code, out = run(capsys, "--db", path, "analyze", str(a), "--by", by)
    assert code == 0 and "…" not in out
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    heads = _one_line_rows(out)["group"]
    assert heads == ["group", "rate [95% interval]", "chance", "Yes/No"]
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("│ all "))
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in lines[at : at + 3]]
    assert [c[1].split()[0] for c in cells] == ["win", "zero-sense", "all-sense"]
    assert cells[0][1] == "win         33.3% [9.7–70.0]"  # m > n on 2 of 6 examined edges
    chance = _chance_expected(path, a, adjusted=True)["all"]
    assert [c[2] for c in cells] == [
        pct(chance.win_rate),
        pct(chance.zero_sense),
        pct(chance.all_sense),
    ]
    assert cells[1][0] == "n=6 of 8" and cells[0][3].startswith("yes-rate ")


def test_analyze_at_160_columns_puts_each_rates_chance_under_it(
    db, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too narrow for a chance column beside each rate, but not for one line per rate: each
    group keeps its columns, its rates' chance under them, every line within 160 cells."""
    from rich.cells import cell_len

    from kglens_tui.textfmt import pct

    monkeypatch.setattr(commands.console, "width", 160)
    path, (a, _), _, _ = db
    code, out = run(capsys, "--db", path, "analyze", str(a), "--by", "subject")
    assert code == 0 and "…" not in out
    assert max(cell_len(line) for line in out.splitlines()) <= 160
    rows = _one_line_rows(out)
    assert rows["group"][:6] == ["group", "edges", "examined", "win", "zero-sense", "all-sense"]
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("│ all "))
    under = [c.strip() for c in lines[at + 1].split("│")[1:-1]]
    chance = _chance_expected(path, a, adjusted=True)["all"]
    assert under[3:6] == [
        f"chance {pct(getattr(chance, f))}" for f in ("win_rate", "zero_sense", "all_sense")
    ]


def test_compare(db, capsys) -> None:
    path, (a, b), _, _ = db
    code, out = run(capsys, "--db", path, "compare")
    assert code == 0 and "model-a" in out and "model-b" in out and "mini EASY" in out
    code, out = run(capsys, "--db", path, "compare", str(a), str(b), "--by", "subject")
    assert code == 0 and "knows, run" in out and "Drift" in out and "Caledonia" in out
    assert f"(run {b}, EASY)" in out and "stopped" not in out  # a column names its difficulty
    conn = connect(path)
    conn.execute("UPDATE run SET status = 'stopped' WHERE id = ?", (b,))
    conn.close()
    code, out = run(capsys, "--db", path, "compare")
    assert code == 0 and f"(run {b}, stopped)" in out  # an unfinished run's figure says so
    conn = connect(path)  # stored as running by a process that is gone: it was killed
    dead = f"{socket.gethostname()}:999999999:1"
    conn.execute("UPDATE run SET status = 'running', owner = ? WHERE id = ?", (dead, b))
    conn.close()
    code, out = run(capsys, "--db", path, "compare")
    assert code == 0 and f"(run {b}, interrupted)" in out


def test_export_and_ego(db, capsys, tmp_path: Path) -> None:
    path, (a, _), _, _ = db
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    files = {
        "--gexf": "pkg.gexf",
        "--graphml": "pkg.graphml",
        "--csv": "edges.csv",
        "--jsonl": "edges.jsonl",
        "--replies": "replies.jsonl",
        "--groups": "groups.csv",
        "--html": "report.html",
    }
    args = [x for flag, name in files.items() for x in (flag, str(out_dir / name))]
    code, out = run(capsys, "--db", path, "export", str(a), *args, "--by", "year")
    assert code == 0 and out.count("wrote") == len(files)
    assert nx.read_gexf(out_dir / "pkg.gexf").number_of_edges() == 8
    assert nx.read_graphml(out_dir / "pkg.graphml").number_of_edges() == 8
    groups = list(csv.DictReader((out_dir / "groups.csv").open()))
    assert len(groups) == 5 + 1 and groups[-1]["key"] == "all"  # five groups, then the run
    assert run(capsys, "--db", path, "export", str(a))[0] == 2
    ego = tmp_path / "ego.json"
    code, _ = run(capsys, "--db", path, "ego", str(a), "Aland", "--json", str(ego))
    assert code == 0 and json.loads(ego.read_text())["center"] == "c:A"
    code, out = run(capsys, "--db", path, "ego", str(a), "Aland")
    assert code == 0 and "Apolis" in out


def test_an_unknown_edge_or_entity_is_named_as_written(db, capsys) -> None:
    path, runs, _, _ = db
    code, out = run(capsys, "--db", path, "review", str(runs[0]), "--edge", "99999999")
    assert (code, out.strip()) == (2, f"error: edge 99999999 is not probed by run {runs[0]}")
    code, out = run(capsys, "--db", path, "ego", str(runs[0]), "Nowhere")
    assert code == 2 and out.strip().startswith("error: no entity 'Nowhere' in KG")


def test_ego_and_compare_name_their_answer_counts(db, capsys) -> None:
    path, runs, _, _ = db
    code, out = run(capsys, "--db", path, "ego", str(runs[0]), "Aland")
    assert code == 0 and "right/wrong" in out and "m/n" not in out


def test_a_drill_down_at_80_columns_puts_each_reply_under_its_question(
    db, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands.console, "width", 80)
    path, (a, _), ids, _ = db
    code, out = run(capsys, "--db", path, "review", str(a), "--edge", str(ids["e7"]))
    assert code == 0 and "question → reply" in out and "Hugo" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert any(line.lstrip("│ ").startswith("→ ") for line in out.splitlines())


def test_the_report_says_what_triage_changes_of_its_as_logged_rates(db, capsys) -> None:
    path, (a, _), _, wh = db
    code, out = run(capsys, "--db", path, "report", str(a))
    assert code == 0 and "Triage changes" not in out
    argv = ["--db", path, "triage", "verifier-error", str(wh), "--reason", "alias"]
    assert run(capsys, *argv)[0] == 0
    code, out = run(capsys, "--db", path, "report", str(a))
    words = " ".join(out.split())
    assert "Triage changes 1 verdict of this run (verifier errors, KG errors): with them " in words
    applied = words.split("with them applied, ")[1].split(". The rates above")[0]
    assert applied.startswith("win ") and "/6" in applied
    assert "The rates above are as logged" in words


def _per_predicate_rows(out: str) -> dict[str, list[tuple[str, str]]]:
    """The report's per-predicate table as predicate -> [(rate line, chance)], one per rate."""
    table = out[out.index("Per predicate") :]
    table = table[: table.index("└")]
    rows: dict[str, list[tuple[str, str]]] = {}
    name = ""
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) < 3 or not cells[1]:
            continue
        if cells[1].startswith("win "):
            name = cells[0]
        rows.setdefault(name, []).append((cells[1], cells[2]))
    return rows


def test_the_reports_per_predicate_rows_carry_intervals_and_chance_at_80_columns(
    db, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each predicate's three rates with the Wilson interval of its m/n (counted by hand from
    run A) beside what blind guessing scores on the same questions, also by hand: capital was
    asked e1 Yes/No twice (a coin wins 1/4, never right 1/4, never wrong 1/4), e2 and e3 once
    Yes/No and once Wh, whose constant answer (Apolis) is wrong for both (wins 0, never right
    1/2, never wrong 0); head of state e7 three Yes/No (wins 1/2, none right 1/8, all 1/8)."""
    from kglens_tui.core.intervals import wilson
    from kglens_tui.textfmt import interval, pct

    monkeypatch.setattr(commands.console, "width", 80)
    path, (a, _), _, _ = db
    code, out = run(capsys, "--db", path, "report", str(a))
    assert code == 0
    rows = _per_predicate_rows(out)
    # (k, n) of win, zero-sense, all-sense, and their chance
    expected = {
        "currency": ([(1, 2), (1, 2), (1, 2)], ["50.0%", "50.0%", "50.0%"]),
        "capital": ([(1, 3), (1, 3), (1, 3)], [pct(1 / 12), pct(5 / 12), pct(1 / 12)]),
        "head of state": ([(0, 1), (0, 1), (0, 1)], ["50.0%", "12.5%", "12.5%"]),
    }
    assert list(rows) == list(expected)  # surely worst zero-sense first: by the lower end
    for name, (counts, chances) in expected.items():
        lines = rows[name]
        assert [line.split()[0] for line, _ in lines] == ["win", "zero-sense", "all-sense"]
        for (line, chance), (k, n), want in zip(lines, counts, chances, strict=True):
            p = wilson(k, n)
            assert line.split(maxsplit=1)[1] == f"{pct(p.value)} {interval(p.low, p.high)}"
            assert chance == want
    table = out[out.index("Per predicate") :]
    table = table[: table.index("└")]
    assert "n=2 of 3" in table and "n=3 of 3" in table and "n=1 of 2" in table
    assert max(len(line) for line in table.splitlines()) <= 80


def test_review_at_80_columns_never_cuts_an_interval(db, capsys, monkeypatch) -> None:
    path, (a, _), _, _ = db
    monkeypatch.setattr(commands.console, "width", 80)
    code, out = run(capsys, "--db", path, "review", str(a))
    assert code == 0 and "fact" in out and "Caledonia · capital" in " ".join(out.split())
    assert "…" not in out and all(len(line) <= 80 for line in out.splitlines())
    assert re.search(r"\[\d+\.\d%–\d+\.\d%\]", out)  # each interval whole, under its value
    monkeypatch.setattr(commands.console, "width", 220)
    code, out = run(capsys, "--db", path, "review", str(a))
    assert "subject" in out and "fact" not in out
