"""Re-checking a run's stored replies with today's verifier: appended triage, log untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from analysis_support import RUN_A, Ask, import_mini, make_run, observation_id

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.reverify import reverify_run
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli.main import main
from kglens_tui.core.verdict import VERIFIER_RULES
from kglens_tui.runs.record import RunNotFoundError, load_run
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.store.connection import connect

STALE = {
    1: [
        # Stored under an older rule: a wrong city beside the true one was "correct".
        Ask(
            "e2",
            "What is the capital of Borduria?",
            "Bopolis or Apolis.",
            "correct",
            qtype="wh",
            expected="",
            answers=(("Bopolis",),),
        ),
        # Stored as incorrect, though it opens with the expected Yes.
        Ask(
            "e1", "Is Apolis the capital of Aland?", "Yes, it is.", "incorrect", candidate="city:a"
        ),
        # Right then and now.
        Ask(
            "e3",
            "What is the capital of Caledonia?",
            "Copolis, the capital of Caledonia.",
            "correct",
            qtype="wh",
            expected="",
            answers=(("Copolis",),),
        ),
    ]
}


@pytest.fixture
def mini(conn: sqlite3.Connection, tmp_path: Path) -> sqlite3.Connection:
    import_mini(conn, tmp_path)
    return conn


def _categories(conn: sqlite3.Connection, run: int) -> list[str]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT category FROM observation WHERE run_id = ? ORDER BY id", (run,)
        )
    ]


def test_a_run_judged_by_todays_rules_changes_nothing(mini) -> None:
    run = make_run(mini, RUN_A)
    found = reverify_run(mini, run, author="ann")
    assert (found.checked, found.changed, found.entries) == (11, 0, [])
    assert tr.triage_log(mini, run_id=run) == []


def test_stale_verdicts_are_appended_as_triage_and_the_log_stays(mini) -> None:
    run = make_run(mini, STALE)
    logged = _categories(mini, run)
    dry = reverify_run(mini, run, author="ann", store=False)
    assert dry.changes == {("correct", "incorrect"): 1, ("incorrect", "correct"): 1}
    assert tr.triage_log(mini, run_id=run) == []

    found = reverify_run(mini, run, author="ann")
    assert found.checked == 3 and found.changed == 2 and len(found.entries) == 2
    assert [(c.reply, c.before, c.after) for c in found.examples] == [
        ("Bopolis or Apolis.", "correct", "incorrect"),
        ("Yes, it is.", "incorrect", "correct"),
    ]
    assert _categories(mini, run) == logged  # the log is as it was
    data = load_run_data(mini, run)
    assert list(data.categories(False)) == ["correct", "incorrect", "correct"]  # as logged
    assert list(data.categories()) == ["incorrect", "correct", "correct"]  # today's verdicts
    entries = tr.triage_log(mini, run_id=run)
    assert all(e.reason.startswith(tr.REVERIFY_REASON) and e.author == "ann" for e in entries)
    assert "(was correct)" in entries[0].reason

    again = reverify_run(mini, run, author="bob")
    assert again.changed == 0 and again.entries == []


def test_a_persons_verdict_and_an_llm_judges_are_left_alone(mini) -> None:
    run = make_run(mini, STALE)
    wh = observation_id(mini, run, 1, 0)
    yes_no = observation_id(mini, run, 1, 1)
    tr.mark_verifier_error(
        mini, wh, author="ann", reason="Apolis is named as a suburb", category="correct"
    )
    mini.execute("UPDATE observation SET verifier = 'llm judge (gpt): yes' WHERE id = ?", (yes_no,))
    found = reverify_run(mini, run, author="bob")
    assert (found.by_person, found.judged, found.changed) == (1, 1, 0)


def test_a_retracted_reverify_entry_is_checked_again(mini) -> None:
    run = make_run(mini, STALE)
    first = reverify_run(mini, run, author="ann")
    tr.retract(mini, first.entries[0], author="ann", reason="try again")
    assert reverify_run(mini, run, author="ann").changed == 1


def test_only_kglens_runs_are_reverified(mini) -> None:
    run = make_run(mini, STALE)
    mini.execute("UPDATE run SET mode = 'kontest' WHERE id = ?", (run,))
    with pytest.raises(RunNotFoundError, match="not a KGLens"):
        reverify_run(mini, run, author="ann")


def test_the_command_shows_changes_literally_and_a_dry_run_stores_nothing(tmp_path, capsys) -> None:
    path = tmp_path / "w.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    hostile = {
        1: [Ask(**{**STALE[1][0].__dict__, "reply": "Bopolis or [bold]Apolis[/bold]\x1b[2J."})]
    }
    run = make_run(conn, hostile)
    conn.close()

    assert main(["--db", str(path), "triage", "reverify", str(run), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"run {run}: 1 reply re-checked by today's verifier; 1 verdict changes" in out
    assert "correct → incorrect" in out and "[bold]Apolis[/bold]" in out and "\x1b" not in out
    assert "nothing stored (--dry-run)" in out
    conn = connect(path)
    assert tr.triage_log(conn, run_id=run) == []
    conn.close()

    assert main(["--db", str(path), "triage", "reverify", str(run), "--author", "ann"]) == 0
    assert "stored as triage entries" in capsys.readouterr().out
    assert main(["--db", str(path), "triage", "reverify", str(run)]) == 0
    assert "0 verdicts change" in capsys.readouterr().out


def test_the_command_names_a_run_of_another_mode(tmp_path, capsys) -> None:
    path = tmp_path / "w.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    run = make_run(conn, STALE)
    conn.execute("UPDATE run SET mode = 'kontest' WHERE id = ?", (run,))
    conn.close()
    assert main(["--db", str(path), "triage", "reverify", str(run)]) != 0
    assert "not a KGLens one" in capsys.readouterr().err


def test_a_run_from_an_earlier_verifier_says_so_until_it_is_re_checked(mini) -> None:
    run = make_run(mini, STALE)  # no verifier rules in its manifest: before they were numbered
    note = stale_verdicts_note(mini, load_run(mini, run))
    assert note is not None and "before rules were numbered" in note
    assert f"triage reverify {run}" in note
    reverify_run(mini, run, author="ann", store=False)
    assert stale_verdicts_note(mini, load_run(mini, run)) is not None  # a dry run re-checks nothing
    reverify_run(mini, run, author="ann")
    assert stale_verdicts_note(mini, load_run(mini, run)) is None
    rows = mini.execute("SELECT rules, changed, author FROM verifier_recheck").fetchall()
    assert [tuple(r) for r in rows] == [(VERIFIER_RULES, 2, "ann")]


def test_no_note_under_todays_rules_and_no_reverify_offered_for_another_mode(mini) -> None:
    current = make_run(mini, STALE)
    mini.execute(
        "UPDATE run SET manifest = json_object('verifier_rules', ?) WHERE id = ?",
        (VERIFIER_RULES, current),
    )
    assert stale_verdicts_note(mini, load_run(mini, current)) is None
    older = make_run(mini, STALE)
    mini.execute(
        "UPDATE run SET manifest = json_object('verifier_rules', ?) WHERE id = ?",
        (VERIFIER_RULES - 1, older),
    )
    assert stale_verdicts_note(mini, load_run(mini, older)) is not None
    mini.execute("UPDATE run SET mode = 'kontest' WHERE id = ?", (older,))
    note = stale_verdicts_note(mini, load_run(mini, older))
    assert note is not None and "reverify" not in note and "a new run judges" in note


def test_the_report_says_when_verdicts_are_from_an_earlier_verifier(tmp_path, capsys) -> None:
    path = tmp_path / "w.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    run = make_run(conn, STALE)
    conn.close()
    assert main(["--db", str(path), "report", str(run)]) == 0
    assert "given by an earlier verifier" in " ".join(capsys.readouterr().out.split())
    assert main(["--db", str(path), "triage", "reverify", str(run)]) == 0
    capsys.readouterr()
    assert main(["--db", str(path), "report", str(run)]) == 0
    assert "earlier verifier" not in capsys.readouterr().out


def test_only_reverifys_own_wording_marks_its_entries(mini) -> None:
    """A person's reason that merely starts like a re-check's is still a person's verdict; an
    in-force re-check entry is replaced, and its "(was X)" names the verdict then in force."""
    run = make_run(mini, STALE)
    wh = observation_id(mini, run, 1, 0)
    yes_no = observation_id(mini, run, 1, 1)
    tr.mark_verifier_error(
        mini, wh, author="carol", reason=f"{tr.REVERIFY_REASON} by hand", category="correct"
    )
    kg_id, edge = mini.execute(
        "SELECT r.kg_id, o.edge_id FROM observation o JOIN run r ON r.id = o.run_id WHERE o.id = ?",
        (yes_no,),
    ).fetchone()
    change = (yes_no, edge, "incorrect", "unparseable")
    with mini:
        tr.add_reverified(mini, kg_id, run, [change], author="old kglens")
    found = reverify_run(mini, run, author="ann")
    assert (found.by_person, found.changes) == (1, {("unparseable", "correct"): 1})
    assert tr.triage_log(mini, observation_id=yes_no)[-1].reason == (
        f"{tr.REVERIFY_REASON} (was unparseable)"
    )


def test_a_blank_author_is_refused_before_any_work(mini) -> None:
    run = make_run(mini, RUN_A)  # nothing would change
    with pytest.raises(tr.TriageError, match="author is required"):
        reverify_run(mini, run, author="  ")


def test_entries_and_the_re_check_are_stored_together_or_not_at_all(mini) -> None:
    run = make_run(mini, STALE)
    mini.execute("DROP TABLE verifier_recheck")
    with pytest.raises(sqlite3.OperationalError):
        reverify_run(mini, run, author="ann")
    assert tr.triage_log(mini, run_id=run) == []


@pytest.mark.parametrize("width", [80, 250])
def test_the_log_shows_which_verdict_of_a_reply_is_in_force(
    tmp_path, capsys, monkeypatch, width
) -> None:
    from kglens_tui.cli import analysis as commands

    monkeypatch.setattr(commands.console, "width", width)
    path = tmp_path / "w.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    run = make_run(conn, STALE)
    first = reverify_run(conn, run, author="ann").entries[0]
    wh = observation_id(conn, run, 1, 0)
    later = tr.mark_verifier_error(
        conn, wh, author="carol", reason="read it: [bold]fine[/]", category="correct"
    )
    conn.close()
    assert main(["--db", str(path), "triage", "log", "--run", str(run)]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert f"replaced by #{later}" in flat and "read it: [bold]fine[/]" in flat
    assert all(len(line) <= width for line in out.splitlines())
    if width == 80:  # one entry a line or two, never a squeezed table
        assert f"#{first} " in out and "…" not in out


def test_a_judged_runs_wh_replies_are_left_for_its_judge(mini) -> None:
    """In a run with an LLM judge, a Wh reply the matcher now answers for would go to the judge
    in a fresh run: the re-check leaves it (Yes/No replies are the matcher's in any run)."""
    run = make_run(mini, STALE)
    mini.execute(
        "UPDATE run SET config = json_set(config, '$.verifier', 'openai:judge') WHERE id = ?",
        (run,),
    )
    found = reverify_run(mini, run, author="ann", store=False)
    assert found.judged == 2 and found.changes == {("incorrect", "correct"): 1}  # the Yes/No


def test_a_verdict_given_while_the_re_check_ran_is_kept(mini, monkeypatch) -> None:
    from kglens_tui.analysis import reverify

    run = make_run(mini, STALE)
    yes_no = observation_id(mini, run, 1, 1)
    real = reverify.check_yes_no

    def meanwhile(reply: str, expected: str):
        tr.mark_verifier_error(mini, yes_no, author="carol", reason="read it", category="refused")
        return real(reply, expected)

    monkeypatch.setattr(reverify, "check_yes_no", meanwhile)
    found = reverify_run(mini, run, author="ann")
    assert found.moved == 1 and found.changes == {("correct", "incorrect"): 1}
    in_force = [
        e for e in tr.triage_log(mini, observation_id=yes_no) if e.action == "verifier_error"
    ]
    assert [e.author for e in in_force] == ["carol"]
