"""`kglens report RUN` as rich tables: the paper's rates with n, intervals and random-guess
baselines, answer bias, categories, and the per-predicate breakdown."""

from __future__ import annotations

import sqlite3

from rich.console import Console
from rich.text import Text

from kglens_tui.analysis.coin_baseline import coin_baseline
from kglens_tui.analysis.report import CATEGORIES, RunReport, build_report, triage_note
from kglens_tui.core.safetext import LiteralTable, literal, markup_literal
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import helpers_line
from kglens_tui.probe.bias import Rate, run_trust
from kglens_tui.probe.engine import LearnedView
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.textfmt import num as _num
from kglens_tui.textfmt import pct as _pct
from kglens_tui.textfmt import selection, sent_note


def verdict_notes(rep: RunReport) -> str:
    """How sure the verdicts are: hedged answers, and matcher-judge agreement when judged."""
    right, wrong = rep.hedged.get("correct", 0), rep.hedged.get("incorrect", 0)
    line = f"hedged answers (given with doubt): {right:,} correct, {wrong:,} incorrect"
    if rep.judged:
        agree = Rate(rep.judge_agrees, rep.judged).text()
        line += f" · alias matcher agrees with the LLM judge on {agree} of judged Wh replies"
    if any(source != "template" for source in rep.question_sources):
        asked = sum(rep.question_sources.values())
        shown = " · ".join(f"{n:,} {source}" for source, n in rep.question_sources.items())
        line += f"\nquestions asked ({asked:,}) by who wrote them: {shown}"
    return line


def learned_text(learned: LearnedView) -> str:
    """What a model of the error rate (predicate and entity effects) fitted to the run's answers
    learned, as markup (names made literal)."""

    def worst(items: tuple[tuple[str, float, int], ...]) -> str:
        return ", ".join(f"{markup_literal(name)} {error:.0%} ({n:,})" for name, error, n in items)

    text = (
        f"[bold]What the answers teach[/] (a model of the error rate with predicate, subject and "
        f"object effects, fitted to the {learned.answers:,} answers): neighbours explain "
        f"{learned.neighbour_weight:.0%} of the variation of error rates, predicates "
        f"{learned.predicate_share:.0%}; its prediction for an edge is worth "
        f"{learned.strength:.1f} answers."
    )
    if learned.weakest_predicates:
        text += f" Worst predicates (expected error, answers): {worst(learned.weakest_predicates)}."
    if learned.weakest_subjects:
        text += f" Worst subjects: {worst(learned.weakest_subjects)}."
    return text


def render_report(conn: sqlite3.Connection, run_id: int, console: Console) -> None:
    """Print everything `kglens report` shows for one run."""
    rep = build_report(conn, run_id)
    trust = run_trust(conn, run_id)
    run, cfg = rep.run, rep.run.config
    sim = " [yellow bold]SIMULATED TARGET[/]" if run.simulated else ""
    asked = selection(run.kg_name, cfg.subset, cfg.predicates)
    console.print(
        f"[bold]Run {run.id}[/] · KG {markup_literal(asked)} · "
        f"target {markup_literal(run.target_label)}{sim}"
    )
    status, reason = run.shown
    console.print(
        f"{cfg.difficulty.upper()} · sampler {cfg.sampler}"
        f"{' · propagation ' + cfg.propagation_mode if cfg.propagation else ' (no propagation)'}"
        f" · generator {markup_literal(cfg.generator)} · "
        f"verifier {markup_literal(cfg.verifier)} · prompt order {cfg.prompt_order} · "
        f"seed {cfg.seed} · status {status}{': ' + markup_literal(reason) if reason else ''} · "
        f"{run.iterations_done}/{cfg.iterations} iterations"
    )
    if status == RunStatus.FAILED and run.error:
        console.print(f"[red]cause:[/] {markup_literal(run.error)}", soft_wrap=True)
    left_out = run.manifest.get("wh_left_out")
    if left_out:
        console.print(
            f"WH: open questions only; {left_out:,} active edges of the selection allow none (no "
            f"Wh template, or {cfg.wh_max_objects} or more objects per subject) and are left out"
        )
    r, base = rep.rates, trust.baseline
    coin = coin_baseline(conn, run.id)
    n = r.examined
    head = LiteralTable(
        title="Metrics (paper 3.2) over examined edges, with 95% Wilson intervals",
        title_justify="left",
        caption=f"{n:,} of {rep.active_edges:,} active edges examined. Chance is a blind guesser "
        "(Yes/No right half the time; each Wh question answered with its predicate's most common "
        "true object) asked by this run's sampler, batch, propagation and number of answers, "
        + (
            f"mean and range of {coin.replicas} replays, where one coin run falls "
            f"{coin.replicas - 1} times in {coin.replicas + 1}; "
            if coin
            else "nothing answered to replay yet (—); "
        )
        + "the sampler re-asks edges a coin failed, so it scores more than the same coin on "
        f"independent asks (last column: {_pct(base.per_question)} of questions right).",
    )
    for col in (
        "metric",
        "value [95% interval] (n)",
        "chance under this sampler",
        "chance, independent asks",
    ):
        head.add_column(col, justify="left" if col == "metric" else "right")
    for name, key, value, guess in (
        ("win rate (m > n)", "win", r.win, base.win_rate),
        ("zero-sense rate (m = 0)", "zero_sense", r.zero_sense, base.zero_sense),
        ("all-sense rate (n = 0)", "all_sense", r.all_sense, base.all_sense),
    ):
        k = round(value * n) if value is not None else 0
        shown = coin.rates[key].text() if coin else "—"
        head.add_row(name, Rate(k, n).text(), shown, _pct(guess))
    console.print(head)
    triaged = triage_note(conn, run.id)
    if triaged:
        console.print(literal(triaged), soft_wrap=True)
    bias = trust.bias
    yes_no = LiteralTable(
        title="Yes/No answers: bias and bias-corrected scores", title_justify="left"
    )
    for col in ("measure", "value"):
        yes_no.add_column(col, justify="left" if col == "measure" else "right")
    yes_no.add_row("yes-rate (replies starting with yes)", bias.yes_rate.text())
    yes_no.add_row("accuracy, expected answer Yes", bias.accuracy_expected_yes.text())
    yes_no.add_row("accuracy, expected answer No", bias.accuracy_expected_no.text())
    yes_no.add_row("accuracy, all", bias.accuracy.text())
    yes_no.add_row("balanced accuracy (chance = 0.50)", _num(bias.balanced_accuracy))
    yes_no.add_row("Cohen's kappa, expected vs given (chance = 0)", _num(bias.kappa))
    yes_no.add_row("replies without yes/no (not counted above)", f"{bias.unparsed:,}")
    if bias.answered or bias.unparsed:
        console.print(yes_no)
    else:
        console.print("Yes/No answers: none (this run asked open questions only)")
    if bias.warning():
        console.print(f"[bold yellow]⚠ {bias.warning()}[/]")
    cats = LiteralTable(title="Replies by category", title_justify="left")
    cats.add_column("question type")
    for c in CATEGORIES:
        cats.add_column(c, justify="right")
    for qtype, row in sorted(rep.by_qtype.items()):
        cats.add_row(qtype, *(f"{row.get(c, 0):,}" for c in CATEGORIES))
    cats.add_row(
        Text("all", "bold"), *(Text(f"{rep.counts.get(c, 0):,}", "bold") for c in CATEGORIES)
    )
    console.print(cats)
    console.print(literal(verdict_notes(rep)), soft_wrap=True)
    lat = "—" if rep.latency_ms_mean is None else f"{rep.latency_ms_mean:,.0f} ms"
    console.print(
        f"requests {rep.requests:,}{sent_note(rep.failed, rep.dropped)} (retries "
        f"{rep.retries:,}) · tokens {rep.prompt_tokens:,} in / {rep.completion_tokens:,} out · "
        f"mean latency {lat} · {rep.seconds:,.1f} s probing. Refused and unparseable replies "
        "count as failures; failed requests never do."
        + (
            f" {rep.dropped:,} of the requests were in iterations dropped whole (a stop now, "
            "quitting, the failure rule): sent, neither answered nor failed, never scored."
            if rep.dropped > 0
            else ""
        )
    )
    if rep.helpers:
        console.print(helpers_line(rep.helpers), soft_wrap=True)
    per = LiteralTable(
        title="Per predicate (surely worst zero-sense first: by its interval's lower end)",
        title_justify="left",
    )
    for col in (
        "predicate",
        "edges",
        "examined",
        "win",
        "zero-sense",
        "all-sense",
        "yes-rate",
        "balanced acc.",
    ):
        per.add_column(col, justify="left" if col == "predicate" else "right")
    for g in rep.per_predicate:
        pb = trust.bias_by_predicate.get(g.name)
        per.add_row(
            g.name,
            f"{g.edges:,}",
            f"{g.rates.examined:,}",
            _pct(g.rates.win),
            _pct(g.rates.zero_sense),
            _pct(g.rates.all_sense),
            _pct(pb.yes_rate.value) if pb else "—",
            _num(pb.balanced_accuracy) if pb else "—",
        )
    console.print(per)
    learned = open_snapshot(conn, run_id).learned
    if learned is not None:
        console.print(learned_text(learned), soft_wrap=True)
    if trust.bias_by_group:
        groups = LiteralTable(
            title="Yes/No answers per region of the subject", title_justify="left"
        )
        for col in (
            "region",
            "answered",
            "yes-rate",
            "acc. expected Yes",
            "acc. expected No",
            "balanced acc.",
        ):
            groups.add_column(col, justify="left" if col == "region" else "right")
        for name, gb in trust.bias_by_group.items():
            groups.add_row(
                name,
                f"{gb.answered:,}",
                _pct(gb.yes_rate.value),
                _pct(gb.accuracy_expected_yes.value),
                _pct(gb.accuracy_expected_no.value),
                _num(gb.balanced_accuracy),
            )
        console.print(groups)
