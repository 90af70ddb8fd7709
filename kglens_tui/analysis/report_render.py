"""`kglens report RUN` as rich tables: the paper's rates with n, intervals and random-guess
baselines, answer bias, categories, and the per-predicate breakdown."""

from __future__ import annotations

import sqlite3

from rich.console import Console
from rich.text import Text

from kglens_tui.analysis.coin_baseline import coin_baseline
from kglens_tui.analysis.groups import RATES
from kglens_tui.analysis.kgwide_render import kg_wide_table, predicate_kg_wide_table
from kglens_tui.analysis.report import (
    CATEGORIES,
    GroupRates,
    RunReport,
    build_report,
    rate_line,
    triage_note,
)
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.answers.bias import BLIND_GUESS, Rate, RunTrust, YesNoBias, run_trust
from kglens_tui.core.safetext import LiteralTable, literal, markup_literal, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import helpers_line
from kglens_tui.modes.kglens.chance import yes_only_note
from kglens_tui.modes.kglens.engine import LearnedView, ProbeSnapshot
from kglens_tui.runs.prices import PricedSettings
from kglens_tui.runs.runner import open_snapshot_as
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.textfmt import counted, interval, selection, sent_note
from kglens_tui.textfmt import num as _num
from kglens_tui.textfmt import pct as _pct

CHANCE_SAMPLER = "chance under this sampler"
"""The report's column (and the live screen's label, once the coin target is replayed) of what
a target answering at random scores under the run's sampler."""
CHANCE_INDEPENDENT = "chance, independent asks"
"""The report's column (and the live screen's label until the replay) of blind guessing on the
questions asked, each ask independent."""


def verdict_notes(rep: RunReport) -> str:
    """How sure the verdicts are: hedged answers, and matcher-judge agreement when judged."""
    right, wrong = rep.hedged.get("correct", 0), rep.hedged.get("incorrect", 0)
    line = f"hedged answers (given with doubt): {right:,} correct, {wrong:,} incorrect"
    if rep.judged:
        agree = Rate(rep.judge_agrees, rep.judged).text()
        line += f" · alias matcher agrees with the LLM judge on {agree} of judged Wh replies"
        line += f" ({rep.judged - rep.judge_agrees:,} disagree)"
    if rep.uncertain:
        line += (
            f" · {rep.uncertain:,} Wh verdicts the rules could not decide (verifier "
            "'alias match (uncertain)', for review)"
        )
    if rep.unjudged:
        line += (
            f" · {rep.unjudged:,} Wh replies the judge failed to judge keep the matcher's verdict"
        )
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
        f"object effects, fitted to the {counted(learned.answers, 'answer')} of its last refit): neighbours "
        f"explain {learned.neighbour_weight:.0%} of the variation of error rates, predicates "
        f"{learned.predicate_share:.0%}; its prediction for an edge is worth "
        f"{learned.strength:.1f} answers."
    )
    if learned.weakest_predicates:
        text += f" Worst predicates (expected error, answers): {worst(learned.weakest_predicates)}."
    if learned.weakest_subjects:
        text += f" Worst subjects: {worst(learned.weakest_subjects)}."
    return text


def _yes_no_lines(bias: YesNoBias | None) -> Text:
    """A predicate's Yes/No figures, one per line: yes-rate, its interval and n, balanced
    accuracy; "—" without Yes/No replies."""
    if bias is None or not bias.answered:
        return Text("—")
    rate = bias.yes_rate
    low, high = rate.interval or (None, None)
    return Text(
        f"yes-rate {_pct(rate.value)}\n{interval(low, high)} n={rate.n:,}\n"
        f"bal. acc. {_num(bias.balanced_accuracy)}"
    )


def predicate_table(rep: RunReport, trust: RunTrust) -> LiteralTable:
    """The per-predicate breakdown of the examined predicates, surely worst zero-sense first:
    each rate with its 95% interval beside what chance scores on the same questions (the
    independent-asks baseline), the predicate's n, and its Yes/No bias. One rate a line keeps
    it within 80 columns."""
    yes_no = bool(trust.bias_by_predicate)
    per = LiteralTable(
        title="Per predicate (surely worst zero-sense first: by its interval's lower end)",
        title_justify="left",
        caption="n: the predicate's edges examined, of its active edges; rates with 95% Wilson "
        "intervals over them. Chance: blind guessing on the same questions, each ask "
        "independent (the last column of the metrics; what a coin scores under this run's "
        "sampler is given there, for the whole run only)."
        + (
            " Yes/No: the yes-rate of the predicate's Yes/No replies with its interval and n, "
            "and their balanced accuracy (chance 0.50)."
            if yes_no
            else ""
        ),
        caption_justify="left",
    )
    per.add_column("predicate")
    per.add_column("rate [95% interval]", no_wrap=True)
    per.add_column("chance", justify="right", no_wrap=True)
    if yes_no:
        per.add_column("Yes/No", no_wrap=True)
    for g in rep.per_predicate:
        if not g.rates.examined:
            continue
        per.add_row(
            literal(f"{visible(g.name, one_line=True)}\nn={g.rates.examined:,} of {g.edges:,}"),
            Text("\n".join(rate_line(name, g.rates.get(field)) for name, field, _ in RATES)),
            Text("\n".join(_pct(getattr(g.chance, base)) for _, _, base in RATES)),
            *([_yes_no_lines(trust.bias_by_predicate.get(g.name))] if yes_no else []),
        )
    return per


def spend_line(config: PricedSettings, rep: RunReport) -> str:
    """The run's spend in US dollars at the prices it started with (target and helpers); ""
    for a run that calls only free models and has no max_cost."""
    from kglens_tui.runs.prices import configured_prices
    from kglens_tui.runs.spend import run_spend, spend_text

    spent = run_spend(
        config,
        (rep.target.prompt_tokens, rep.target.completion_tokens),
        rep.helpers,
        configured_prices(),
        rep.run.manifest.get("prices"),
    )
    text = spend_text(spent, config.max_cost)
    return f"spend {text} (at the prices the run started with: its manifest)" if text else ""


def not_examined(rep: RunReport) -> str:
    """The predicates with no edge examined yet and their active edges, on one line; '' when
    every predicate has one."""
    left: list[GroupRates] = [g for g in rep.per_predicate if not g.rates.examined]
    if not left:
        return ""
    shown = ", ".join(f"{g.name} ({g.edges:,})" for g in left)
    return f"{counted(len(left), 'predicate')} with no edge examined yet (active edges): {shown}"


def render_report(conn: sqlite3.Connection, run_id: int, console: Console) -> None:
    """Print everything `kglens report` shows for one run."""
    data = load_run_data(conn, run_id)
    rep = build_report(conn, run_id, data)
    trust = run_trust(conn, run_id, kg=data.kg)
    run, cfg = rep.run, rep.run.config
    sim = " [yellow bold]SIMULATED TARGET[/]" if run.simulated else ""
    asked = selection(run.kg_name, cfg.subset, cfg.predicates)
    console.print(
        f"[bold]Run {run.id}[/] · KG {markup_literal(asked)} · "
        f"target {markup_literal(run.target_label)}{sim}"
    )
    status, reason = run.shown
    console.print(
        f"{cfg.difficulty.upper()} · "
        + (
            f"run {cfg.plan_of}'s questions (its sampler, {cfg.sampler})"
            if cfg.plan_of is not None
            else f"sampler {cfg.sampler}"
        )
        + f"{' · propagation ' + cfg.propagation_mode if cfg.propagation else ' (no propagation)'}"
        f" · generator {markup_literal(cfg.generator)} · "
        f"verifier {markup_literal(cfg.verifier)} · prompt order {cfg.prompt_order} · "
        f"seed {cfg.seed} · status {status}{': ' + markup_literal(reason) if reason else ''} · "
        f"{run.iterations_done}/{counted(cfg.iterations, 'iteration')}"
    )
    if status == RunStatus.FAILED and run.error:
        console.print(f"[red]cause:[/] {markup_literal(run.error)}", soft_wrap=True)
    left_out = run.manifest.get("wh_left_out")
    if left_out:
        console.print(
            f"WH: open questions only; {left_out:,} active edges of the selection allow none (no "
            f"Wh template, or {cfg.wh_max_objects} or more objects per subject) and are left out"
        )
    headline = kg_wide_table(data)
    if headline is not None:
        console.print(headline)
    else:
        console.print(
            literal(
                "KG-wide rates: none (this run was drawn without the sampling design, which "
                "came with schema 20, or has no answer yet); the rates below describe the "
                "edges its sampler chose, not the KG.",
                "yellow",
            ),
            soft_wrap=True,
        )
    r, base = rep.rates, trust.baseline
    coin = coin_baseline(conn, run.id)
    n = r.examined
    head = LiteralTable(
        title=f"The paper's metrics (3.2) over the {counted(n, 'edge')} this run examined (where its "
        "sampler looked: not the KG's rates), with 95% Wilson intervals",
        title_justify="left",
        caption=f"{n:,} of {rep.active_edges:,} active edges examined. Chance is a blind guesser "
        f"({BLIND_GUESS}) asked by this run's sampler, batch, propagation and number of answers, "
        + (
            f"mean and range of {coin.replicas} replays, where one coin run falls "
            f"{coin.replicas - 1} times in {coin.replicas + 1}; "
            if coin
            else "nothing answered to replay yet (—); "
        )
        + "the sampler re-asks edges the guesser failed, which moves its score away from the "
        "same guesser's on independent asks (last column: "
        f"{_pct(base.per_question)} of questions right).",
    )
    for col in (
        "metric",
        "value [95% interval] (n)",
        CHANCE_SAMPLER,
        CHANCE_INDEPENDENT,
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
    triaged = triage_note(conn, run.id, data)
    if triaged:
        console.print(literal(triaged), soft_wrap=True)
    stale = stale_verdicts_note(conn, run)
    if stale:
        console.print(literal(stale, "yellow"), soft_wrap=True)
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
    only = yes_only_note(data.kg, data.kg_pos, cfg)
    if only:
        console.print(literal(only, "yellow"), soft_wrap=True)
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
    console.print(literal(verdict_notes(rep)))
    lat = "—" if rep.latency_ms_mean is None else f"{rep.latency_ms_mean:,.0f} ms"
    sent = rep.target
    console.print(
        f"requests {sent.requests:,}{sent_note(sent.errors, sent.dropped)} (retries "
        f"{sent.retries:,}) · tokens {sent.prompt_tokens:,} in / {sent.completion_tokens:,} out · "
        f"mean latency {lat} · {rep.seconds:,.1f} s probing. Refused and unparseable replies "
        "count as failures; failed requests never do."
        + (
            f" {sent.dropped:,} of the requests were in iterations dropped whole (a stop now, "
            "quitting, the failure rule): sent, neither answered nor failed, never scored."
            if sent.dropped > 0
            else ""
        )
    )
    if rep.helpers:
        console.print(helpers_line(rep.helpers))
    spent = spend_line(run.config, rep)
    if spent:
        console.print(literal(spent))
    if any(g.rates.examined for g in rep.per_predicate):
        per_predicate = predicate_kg_wide_table(data)
        if per_predicate is not None:
            console.print(per_predicate)
        console.print(predicate_table(rep, trust))
    unasked = not_examined(rep)
    if unasked:
        console.print(literal(unasked, one_line=True))
    learned = open_snapshot_as(conn, run_id, ProbeSnapshot).learned
    if learned is not None:
        console.print(learned_text(learned))
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
