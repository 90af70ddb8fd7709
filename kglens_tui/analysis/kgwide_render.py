"""The KG-wide rates as text and tables: the headline of `kglens report`, its per-predicate
column, `kglens runs` and the live screen."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from rich.text import Text

from kglens_tui.analysis.kgwide import (
    KGWide,
    census_answers,
    kg_wide,
    kg_wide_sense,
    kg_wide_yes_rate,
    shown,
)
from kglens_tui.analysis.rundata import RunData
from kglens_tui.answers.bias import BLIND_GUESS
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.modes.kglens.design import is_census
from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.modes.kglens.rate_text import (
    TOO_FEW_PAIRS,
    capped_note,
    chance_text,
    n_text,
    noted,
    sense_text,
    win_text,
)
from kglens_tui.modes.kglens.samplers import Sampler
from kglens_tui.modes.kglens.sense_rates import ALL_SENSE, ZERO_SENSE
from kglens_tui.textfmt import counted, pct, rate_ci

KG_WIDE_TITLE = (
    "KG-wide rates: every edge of the selection asked as this run asks (once; twice for "
    "zero-sense and all-sense)"
)
TWO_ASKS = (
    "Zero-sense and all-sense are KG-wide at two asks per edge: the chance that an edge asked "
    "twice as this run asks is wrong (right) both times, estimated from the edges the census "
    "answered twice or more (the floor's answers; brute force: all its answers; a run stored "
    "before the rolling floor: the pairs of its draws); the paper's versions over the examined "
    "edges, which depend on how often the sampler asked each one, follow below"
)
SENSE_ROWS = {
    ZERO_SENSE: "zero-sense (two asks, both wrong)",
    ALL_SENSE: "all-sense (two asks, both right)",
}


def kg_wide_line(kw: KGWide | None) -> str:
    """One line: KG-wide win rate, interval, chance on the same estimand, n."""
    return kg_wide_snapshot_line(
        None if kw is None else kw.rate, None if kw is None else kw.chance_error
    )


def kg_wide_snapshot_line(rate: DesignRate | None, chance_error: float | None) -> str:
    """`kg_wide_line` from a rate and chance's error rate (a live snapshot's)."""
    if rate is None:
        return "KG-wide win — (no answer of the sampling design yet)"
    kw = shown(rate, chance_error)
    line = f"KG-wide win {win_text(kw.rate)} · chance {pct(kw.chance_win)} · n={rate.answers:,}"
    return with_note(line, capped_note([kw.rate]))


def with_note(line: str, note: str) -> str:
    """A line with a note after it (`rate_text.capped_note`), if any."""
    return f"{line} · {note}" if note else line


def _sense_parts(
    senses: Mapping[str, DesignRate | None], sense_chance: Mapping[str, float | None]
) -> tuple[list[str], int, list[DesignRate]]:
    """Each settled two-ask rate as "zero-sense 10.5% [7.4–13.6] chance 25.0%", the answers
    they rest on and the rates as shown (capped where they fell outside 0–100%)."""
    parts, n, values = [], 0, []
    for sense, two in senses.items():
        if two is None:
            continue
        value = shown(two, sense_chance.get(sense))
        values.append(value.rate)
        chance = "" if value.chance_error is None else f" chance {pct(value.chance_error)}"
        parts.append(f"{sense} {sense_text(value.rate)}{chance}")
        n = max(n, two.answers)
    return parts, n, values


def senses_snapshot_text(
    senses: Mapping[str, DesignRate | None], sense_chance: Mapping[str, float | None]
) -> str:
    """A live snapshot's two-ask zero-sense and all-sense rates, each with blind guessing's on
    the same estimand, and the answers they rest on: " · 2 asks: zero-sense 10.5% [7.4–13.6]
    chance 25.0% · all-sense ... · n=1,234"; " · 2 asks — (too few edges asked twice yet)" while
    none is settled; empty for a run without them."""
    parts, n, values = _sense_parts(senses, sense_chance)
    if not parts:
        return f" · 2 asks {TOO_FEW_PAIRS}" if senses else ""
    return with_note(f" · 2 asks: {' · '.join(parts)} · n={n:,}", capped_note(values))


def senses_lines(
    senses: Mapping[str, DesignRate | None], sense_chance: Mapping[str, float | None], room: int
) -> list[str]:
    """`senses_snapshot_text` on lines of their own for a line too narrow to hold it after the
    KG-wide win rate: "KG-wide at 2 asks: ..." where that fits ``room`` cells, else one line a
    rate ("KG-wide zero-sense (2 asks) 10.5% [7.4–13.6] chance 25.0%", n after the last where
    it fits) and the † note on a line of its own; [] for a run without them."""
    one = senses_snapshot_text(senses, sense_chance)
    if not one:
        return []
    line = "KG-wide at " + one.removeprefix(" · ")
    parts, n, values = _sense_parts(senses, sense_chance)
    if len(line) <= room or not parts:
        return [line]
    lines = [f"KG-wide {part.replace(' ', ' (2 asks) ', 1)}" for part in parts]
    if len(lines[-1]) + len(f" · n={n:,}") <= room:
        lines[-1] += f" · n={n:,}"
    note = capped_note(values)
    return lines + ([note] if note else [])


def _reasked_note(data: RunData) -> str:
    """What the floor's first pass re-asked, where it re-asked anything (runs stored before
    the re-asks have none)."""
    first = data.obs.edge_id[data.obs.floor_pass == 0]
    again = len(first) - len(np.unique(first))
    if again == 0:
        return ""
    return (
        f" (its first pass put in {counted(again, 're-ask')} of edges it had asked, so the "
        "answers' own noise is measured from the start)"
    )


def method_note(rate: DesignRate, data: RunData) -> str:
    """How the estimate was made, in a sentence."""
    if rate.method == "census":
        if data.run.config.sampler == Sampler.BRUTE_FORCE:
            return (
                "Brute force asks every edge once per epoch in random order: the mean over the "
                "examined edges of their failure shares, with the census's interval."
            )
        counted_answers = census_answers(data)
        answered = data.categories(False) != "error"
        left = 0 if counted_answers is None else int((answered & ~counted_answers).sum())
        if not is_census(data.run.config.sampler, data.run.config.batch_size, data.n_edges) or (
            counted_answers is not None and (data.obs.floor_pass[counted_answers] >= 0).all()
        ):
            return (
                f"The floor of each draw walks a random order of the edges pass after pass: its "
                f"answers are a census in random order, as brute force's are, and the mean over "
                f"the edges it answered of their failure shares is the estimate, with the "
                f"census's interval{_reasked_note(data)}; the sampler's "
                f"{counted(left, 'pick')} (and retries) hunt blind spots and are left out. "
                "Checked by simulation: `kglens bench rates`."
            )
        return (
            "This run's batch holds every edge, so each iteration asked them all: the mean over "
            "the edges of their failure shares, with the census's interval"
            + (
                f"; left out: {counted(left, 'answer')} of an iteration a budget cut short "
                "(the sampler's picks in it are no random sample)"
                if left
                else ""
            )
            + "."
        )
    return (
        "Stored before the rolling floor: each answer is weighted by one over the probability "
        "its edge had of being drawn (the "
        "sampler's picks 1, the uniform floor's the floor's share), with the run's predictions "
        "as control variate; the interval is valid under the adaptive sampling (martingale "
        "CLT). Checked by simulation: `kglens bench rates`."
    )


def kg_wide_table(data: RunData) -> LiteralTable | None:
    """The headline table of `kglens report`; None when the run cannot be estimated KG-wide
    (an adaptive run stored before the sampling design, or nothing answered)."""
    kw = kg_wide(data, adjusted=False)
    if kw is None:
        return None
    rate = kw.rate
    senses = {sense: kg_wide_sense(data, sense, adjusted=False) for sense in SENSE_ROWS}
    table = LiteralTable(
        title=KG_WIDE_TITLE,
        title_justify="left",
        caption=noted(
            f"{counted(rate.edges, 'edge')}. {method_note(rate, data)} Chance: blind guessing "
            f"({BLIND_GUESS}) on the same estimand. {TWO_ASKS}.",
            [rate, *(two.rate for two in senses.values() if two is not None)],
        ),
        caption_justify="left",
    )
    for col in ("metric", "value [95% interval]", "chance", "n"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    chance = kw.chance_win
    table.add_row(
        "win rate (one ask right)", win_text(rate), chance_text(chance, rate), Text(n_text(rate))
    )
    table.add_row(
        "error rate (one ask wrong)",
        sense_text(rate),
        pct(kw.chance_error),
        Text(n_text(rate)),
    )
    for sense, label in SENSE_ROWS.items():
        two = senses[sense]
        if two is None:
            table.add_row(label, TOO_FEW_PAIRS, "", "")
            continue
        table.add_row(
            label,
            sense_text(two.rate),
            pct(two.chance_error),
            Text(n_text(two.rate)),
        )
    yes = kg_wide_yes_rate(data, adjusted=False)
    if yes is not None:
        low, high = yes.interval()
        table.add_row(
            "yes-rate (Yes/No replies that say yes)",
            rate_ci(yes.error, low, high),
            pct(0.5),
            Text(n_text(yes).replace("answers", "Yes/No replies")),
        )
    return table


def predicate_kg_wide(data: RunData, adjusted: bool = False) -> dict[str, KGWide]:
    """Each predicate's KG-wide estimate by its label (predicates without one left out), as
    logged like the report's other figures unless ``adjusted`` (triage applied)."""
    out: dict[str, KGWide] = {}
    kg = data.kg
    for p in sorted(set(kg.p[data.kg_pos].tolist())):
        kw = kg_wide(data, adjusted, predicate=int(p))
        if kw is not None:
            out[kg.pred_labels[int(p)]] = kw
    return out


def predicate_kg_wide_table(data: RunData) -> LiteralTable | None:
    """Each predicate's KG-wide win rate with interval, chance and n, worst first; None when
    the run has no KG-wide estimate."""
    return kg_wide_table_of(
        predicate_kg_wide(data),
        "KG-wide win rate per predicate (each of its edges asked once), surely worst first",
        "Estimated as the headline is, over the predicate's own answers; the paper's rates over "
        "its examined edges follow.",
    )


def kg_wide_table_of(rows: dict[str, KGWide], title: str, caption: str) -> LiteralTable | None:
    """Groups' KG-wide win rates (name -> estimate) with interval, chance, the answers each rests
    on and the group's edges (two columns: a predicate's edges are asked more than once, so the
    answers may outnumber the edges), surely worst first (`KGWide.surely_worst`); None
    without one."""
    if not rows:
        return None
    table = LiteralTable(
        title=title,
        title_justify="left",
        caption=noted(caption, (kw.rate for kw in rows.values())),
        caption_justify="left",
    )
    for col in ("group", "win [95% interval]", "chance", "answers", "edges"):
        # the figures stay whole; a name, and chance's words after its figure, wrap
        table.add_column(
            col,
            justify="left" if col == "group" else "right",
            no_wrap=col not in ("group", "chance"),
            min_width=12 if col == "group" else None,
        )
    for name, kw in sorted(rows.items(), key=lambda item: (*item[1].surely_worst(), item[0])):
        chance = kw.chance_win
        table.add_row(
            name,
            win_text(kw.rate),
            chance_text(chance, kw.rate),
            f"{kw.rate.answers:,}",
            f"{kw.rate.edges:,}",
        )
    return table
