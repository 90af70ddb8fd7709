"""The new-run form: `esc` on a changed form asks before throwing it away; validation lists
every bad field at once, in the words of the form's labels."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Input, Label, Select
from toy_mode import TOY, ToyConfig
from tui_support import HUGE, MEDIUM, SMALL, make_app, notices_of, open_form

from kglens_tui.cli.main import build_parser
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.fields import field_specs
from kglens_tui.settings import load_settings
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.new_run import FormRun

pytestmark = pytest.mark.tui


async def test_esc_leaves_an_unchanged_form_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        assert not form.changed()
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_esc_on_a_changed_form_asks_before_discarding_it(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        form.query_one("#batch_size", Input).value = "7"
        await pilot.pause()
        assert form.changed()
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # keep it: the form as it was
        await wait_for(pilot, lambda: app.screen is form)
        assert form.query_one("#batch_size", Input).value == "7"
        form.query_one("#batch_size", Input).focus()
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_the_back_button_asks_as_esc_does(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        form.query_one("#seed", Input).value = "99"
        await pilot.pause()
        form.query_one("#back").press()
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))


async def test_validation_lists_every_error_at_once_in_the_labels_words(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "kglens"
        form.query_one("#batch_size", Input).value = "0"
        form.query_one("#iterations", Input).value = ""
        form.query_one("#concurrency", Input).value = "-2"
        form.query_one("#max_requests", Input).value = "0"
        await pilot.pause()
        await pilot.press("ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "Batch size" in str(status.render()))
        lines = str(status.render()).splitlines()
        assert lines == [
            "Batch size must be at least 1 (got 0)",
            "Iterations is required",
            "Requests in flight must be at least 1 (got -2)",
            "Budget: max requests must be at least 1 (got 0)",
        ]
        assert app.screen is form  # nothing started
        assert any("Iterations is required" in n.message for n in notices_of(app))


async def test_a_kontest_form_names_its_facts_field_by_its_label(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "kontest"
        await wait_for(pilot, lambda: bool(form.query_one("#relations").display))
        form.query_one("#relations", Input).value = "-1"
        form.query_one("#max_paths", Input).value = "-3"
        form.query_one("#iterations", Input).value = ""  # hidden in KONTEST: not asked for
        await pilot.pause()
        await pilot.press("ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: bool(str(status.render())))
        assert str(status.render()).splitlines() == [  # each by KONTEST's own checks, at once
            "Relations to ask must not be negative",
            "Paths (max) must not be negative",
        ]


async def test_a_settings_check_names_the_field_by_its_label(tmp_path: Path) -> None:
    """An error from the run settings' own checks, which name the setting, names the label."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "kglens"
        form.query_one("#generator", Input).value = "x"
        await pilot.pause()
        await pilot.press("ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: bool(str(status.render())))
        assert str(status.render()).startswith("Question generator: unknown target 'x'")


def _run_command(*words: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in words:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


NOT_SETTINGS = {"help", "resume", "name", "quiet", "yes", "no_tui"}
"""A run command's flags that are no run setting (what to do, not what to ask)."""
FORM_NAMES = {
    "model": {"target"},
    "propagation": {"propagation", "propagation_mode"},
}
"""Form fields that set other settings than their id says (a target is a kind and a model)."""


@pytest.mark.parametrize(
    "mode, command",
    [
        ("kglens", ("probe",)),
        ("kontest", ("consistency", "run")),
        ("facteval", ("facteval", "run")),
    ],
)
async def test_every_setting_of_a_run_command_is_a_field_of_the_form(
    tmp_path: Path, mode: str, command: tuple[str, ...]
) -> None:
    settings = {a.dest for a in _run_command(*command)._actions} - NOT_SETTINGS
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=HUGE) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = mode
        form.query_one("#target", Select).value = "openai"
        await wait_for(pilot, lambda: form.query_one("#base_url").display)
        await wait_for(pilot, lambda: form.query_one("#kg").display)
        shown = {str(w.id) for w in form.query(".form-grid > *") if w.display and w.id}
        settable = set().union(*(FORM_NAMES.get(name, {name}) for name in shown))
        assert settings - settable == set()
        assert settings  # the parser was found


async def test_a_registered_modes_settings_are_fields_of_the_form_and_start_its_run(
    tmp_path: Path,
) -> None:
    """The toy mode (registered by the tests, no edit to the form) is offered by its label;
    every setting of its settings type is a field, labelled and started from its defaults;
    a toy run starts from the form with what was typed."""
    from kglens_tui.tui.screens.live import LiveScreen

    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=HUGE) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = TOY  # not an option: InvalidSelectValueError
        form.query_one("#target", Select).value = "openai"
        await wait_for(pilot, lambda: bool(form.query_one("#edges").display))
        await wait_for(pilot, lambda: form.query_one("#base_url").display)
        shown = {str(w.id) for w in form.query(".form-grid > *") if w.display and w.id}
        settable = set().union(*(FORM_NAMES.get(name, {name}) for name in shown))
        assert {spec.name for spec in field_specs(ToyConfig)} - settable == set()
        assert form.labels()["edges"] == "Edges"  # its name as words: it declares no label
        assert form.query_one("#edges", Input).value == str(ToyConfig().edges)
        assert "toy settings" in str(form.query_one("#own-title").render())
        assert not form.query_one("#relations").display  # another mode's own field
        form.query_one("#edges", Input).value = "2"
        form.query_one("#target", Select).value = "sim"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: not app._busy(), 60)
    conn = sqlite3.connect(db)
    try:
        mode, status, config = conn.execute("SELECT mode, status, config FROM run").fetchone()
    finally:
        conn.close()
    assert (mode, status, json.loads(config)["edges"]) == (TOY, "finished", 2)


@pytest.mark.parametrize("iterations, batch, asks", [(60, 64, True), (1, 4, False)])
async def test_a_run_against_a_priced_model_shows_its_cost_and_asks_above_the_threshold(
    tmp_path: Path, iterations: int, batch: int, asks: bool
) -> None:
    """60 x 64 requests of ~100 prompt tokens at $2.50 / $10 per million tokens may cost more
    than the $0.05 the settings allow without asking; 1 x 4 may not."""
    config = tmp_path / "config.toml"
    config.write_text(
        'confirm_cost_above = 0.05\n[prices]\n"priced-model" = "2.50/10.00"\n', encoding="utf-8"
    )
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    started: list[RunConfig] = []
    app.start_run = lambda config, more=(): started.append(config)  # type: ignore[method-assign]
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        form.query_one("#target", Select).value = "openai"
        form.query_one("#model", Input).value = "priced-model"
        form.query_one("#iterations", Input).value = str(iterations)
        form.query_one("#batch_size", Input).value = str(batch)
        await pilot.pause()
        config = form.build_config()  # what Start does once the endpoint answered:
        form._check_workspace(FormRun(config, form.build_mode_config(config)), True, ())
        if asks:
            await wait_for(
                pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query(Label)
            )
            question = str(app.screen.query_one(Label).render())
            assert "estimated cost $" in question and "more than $0.05" in question
            assert not started
            await pilot.press("y")
        else:
            await wait_for(
                pilot, lambda: any("estimated cost" in n.message for n in notices_of(app))
            )
        await wait_for(pilot, lambda: bool(started))
        assert started[0].target == "openai:priced-model"


async def test_an_unknown_transitive_predicate_is_an_error_on_the_form(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    started: list = []
    app.start_mode_run = lambda config, more=(): started.append(config)  # type: ignore[method-assign]
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "kontest"
        await wait_for(pilot, lambda: bool(form.query_one("#transitive").display))
        form.query_one("#transitive", Input).value = "member_of, [b]nosuch"
        await pilot.press("ctrl+s")
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "no predicate" in str(status.render()))  # read on a worker
        assert str(status.render()).startswith("Transitive predicates: no predicate")
        assert "'[b]nosuch'" in str(status.render()) and not started
        assert app.screen is form


async def test_the_help_line_shows_a_fields_help_literally(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        form.query_one("#max_cost", Input).focus()
        help_line = form.query_one("#field-help")
        await wait_for(pilot, lambda: "Budget" in str(help_line.render()))
        assert "settings [prices] over the list prices" in str(help_line.render())


async def test_a_fact_eval_run_against_a_priced_model_asks_by_its_plans_requests(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        'confirm_cost_above = 0.05\n[prices]\n"priced-model" = "1000/2000"\n', encoding="utf-8"
    )
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    started: list = []
    app.start_mode_run = lambda config, more=(): started.append(config)  # type: ignore[method-assign]
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "facteval"
        form.query_one("#target", Select).value = "openai"
        await wait_for(pilot, lambda: bool(form.query_one("#facts").display))
        form.query_one("#model", Input).value = "priced-model"
        form.query_one("#facts", Input).value = "2"
        await pilot.pause()
        config = form.build_config()  # what Start does once the endpoint answered:
        form._check_workspace(FormRun(config, form.build_mode_config(config)), True, ())
        await wait_for(
            pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query(Label)
        )
        question = str(app.screen.query_one(Label).render())
        contexts = len(form.build_mode_config(form.build_config()).contexts)
        assert f" {2 * 4 * contexts} requests" in question  # tfq x 2, mcq, saq per fact
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is form)
        assert not started


async def test_generated_fields_join_the_errors_listed_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        form.query_one("#batch_size", Input).value = "0"
        form.query_one("#timeout_s", Input).value = ""
        form.query_one("#temperature", Input).value = "."
        errors = form.form_errors()
        assert "Batch size must be at least 1 (got 0)" in errors
        assert "Timeout (seconds) is required" in errors
        assert any(e.startswith("Temperature: '.'") for e in errors)
