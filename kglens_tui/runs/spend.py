"""A run's spend in money: the models it calls by role, their prices (`llm.pricing`, settings
[prices] over the list prices), and the cost estimate shown before a run starts."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from kglens_tui.llm.pricing import (
    Estimate,
    Price,
    Spend,
    estimate,
    price_for,
    price_table,
    prompt_tokens_of,
    spend,
)
from kglens_tui.llm.usage import Counters
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.prices import (
    TARGET,
    PricedSettings,
    configured_prices,
    priced_roles,
    role_specs,
)

if TYPE_CHECKING:
    from kglens_tui.settings import Settings

COST_YES_HELP = "start without asking when the cost estimate is above confirm_cost_above"


def run_spend(
    config: PricedSettings,
    target: tuple[int, int],
    helpers: Mapping[str, Counters],
    prices: Mapping[str, Price],
    started: object = None,
) -> Spend:
    """Dollars the run spent: the target's (prompt, completion) tokens and each helper role's,
    at the prices the run started with (``started``: its manifest's `prices`, role -> [input,
    output]) where it has them, else at ``prices``."""
    specs = role_specs(config)
    table = dict(prices)
    for role, pair in (started if isinstance(started, Mapping) else {}).items():
        if role in specs and isinstance(pair, Sequence) and len(pair) >= 2:
            table[specs[role]] = Price(float(pair[0]), float(pair[1]))
    usage = {TARGET: (specs[TARGET], target[0], target[1])}
    for role, used in helpers.items():
        usage[role] = (specs.get(role, ""), used.prompt_tokens, used.completion_tokens)
    return spend(usage, table)


def spend_text(spent: Spend, limit: float | None) -> str:
    """A run's spend as shown: "$0.42", "$0.42 of max $5.00"; "" for a run that calls only
    free models (local, simulated) and has no max_cost."""
    if not spent.dollars and not spent.unpriced and limit is None:
        return ""
    return spent.text() + (f" of max ${limit:,.2f}" if limit is not None else "")


def stored_spend_text(
    conn: sqlite3.Connection,
    run_id: int,
    config: PricedSettings,
    manifest: Mapping[str, object],
    prices: Mapping[str, Price],
    tokens: tuple[int, int],
) -> str:
    """`spend_text` of a stored run (`kglens runs`): its target's (prompt, completion)
    ``tokens`` as listed and its stored helper usage, at the prices its manifest kept, else at
    ``prices``."""
    from kglens_tui.store.helper_usage import load_usage

    spent = run_spend(config, tokens, load_usage(conn, run_id), prices, manifest.get("prices"))
    return spend_text(spent, config.max_cost)


def manifest_prices(config: ModeConfig) -> dict[str, list[float]]:
    """Role -> [input, output] dollars per million tokens for every priced, paid model the run
    calls: kept in its manifest, so its spend is counted at the prices it started with."""
    return {
        role: [price.input_per_m, price.output_per_m]
        for role, _spec, price in priced_roles(config, configured_prices())
        if price is not None and price.input_per_m + price.output_per_m > 0
    }


def planned_requests(config: ModeConfig, conn: sqlite3.Connection | None = None) -> int | None:
    """The target requests a new run plans at most: what its mode's `planned_requests` says
    (a KGLens run's iterations x batch size, a unit mode's plan read through ``conn``), within
    the run's request budget; None when neither says."""
    from kglens_tui.runs.registry import mode_of_config

    bound = getattr(config, "max_requests", None)
    planner = getattr(mode_of_config(config), "planned_requests", None)
    planned: int | None = planner(conn, config) if planner is not None else None
    if planned is None:
        return None if bound is None else int(bound)
    return planned if bound is None else min(planned, int(bound))


def run_estimate(
    config: ModeConfig, prices: Mapping[str, Price], conn: sqlite3.Connection | None = None
) -> Estimate | None:
    """The target's cost estimate for a new run (None: a free or unpriced target, or a number
    of requests nothing says: a unit mode's plan is read through ``conn``)."""
    price = price_for(str(config.target), prices)
    if price is None or price.input_per_m + price.output_per_m == 0:
        return None
    requests = planned_requests(config, conn)
    if requests is None:
        return None
    from kglens_tui.runs.prompts import load_prompt

    messages = load_prompt("answer_yes_no").render(question="Is Paris the capital of France?")
    text = "".join(str(m.get("content", "")) for m in messages)
    return estimate(requests, prompt_tokens_of(text), int(config.max_tokens), price)


def cost_check(
    config: ModeConfig, settings: Settings, conn: sqlite3.Connection | None = None
) -> tuple[Estimate | None, bool]:
    """A new run's cost estimate at ``settings``' prices (a unit mode's plan read through
    ``conn``), and whether its upper end is above their `confirm_cost_above` (the run starts
    only once confirmed)."""
    found = run_estimate(config, price_table(settings.prices), conn)
    return found, found is not None and found.high > settings.confirm_cost_above


def confirm_cost(
    config: ModeConfig,
    yes: bool,
    say: Callable[[str], None],
    ask: Callable[[str], bool] | None,
    conn: sqlite3.Connection | None = None,
) -> None:
    """Before a new run against a priced model: ``say`` its cost estimate; above the settings'
    `confirm_cost_above`, go on only when ``yes`` or ``ask(question)`` is true (``ask`` is None
    without a terminal to ask on). Raises ConfigError when the run must not start."""
    from kglens_tui.runs.config import ConfigError
    from kglens_tui.settings import load_settings

    settings = load_settings()
    found, asks = cost_check(config, settings, conn)
    if found is None:
        return
    say(found.text())
    limit = settings.confirm_cost_above
    if not asks or yes:
        return
    question = f"it may cost more than ${limit:,.2f} (confirm_cost_above): start it? [y/N] "
    if ask is not None and ask(question):
        return
    raise ConfigError(
        f"not started: the estimate's upper end ${found.high:,.2f} is above confirm_cost_above "
        f"${limit:,.2f}; give --yes to start it, or set max_cost / max_requests"
    )


def say_cost(text: str) -> None:
    """A cost line on the error stream (the output stream stays the command's results)."""
    from kglens_tui.core.console import err_console
    from kglens_tui.core.safetext import markup_literal

    err_console.print(markup_literal(text), soft_wrap=True)


def ask_on_terminal() -> Callable[[str], bool] | None:
    """A yes/no question on the terminal; None without one (a script gives --yes)."""
    import sys

    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None

    def ask(question: str) -> bool:
        from kglens_tui.core.console import err_console

        err_console.print(question, end="", markup=False)
        return input().strip().lower() in ("y", "yes")

    return ask
