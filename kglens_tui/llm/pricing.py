"""What a run costs in money: a price table per model, the spend of a run's target and helpers,
and the estimate of a run before it starts.

Prices are US dollars per million tokens, input and output. The defaults are the public list
prices of the main hosted models as their providers listed them (OpenAI's API pricing page,
mid-2025); they are never fetched. A settings file's ``[prices]`` table adds models or overrides
them, one entry a model, ``"MODEL" = "INPUT/OUTPUT"`` (e.g. ``"gpt-4o" = "2.50/10.00"``), with an
optional third part, the batch API's discount ("2.50/10.00/0.5": half price in batches; shown,
not applied: KGLens sends no batch requests). A model that is in neither is unpriced: its spend
is unknown and says so, never zero; local and simulated targets cost nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from kglens_tui.core.errors import KGLensError
from kglens_tui.llm.targets import spec_kind


@dataclass(frozen=True)
class Price:
    """US dollars per million input (prompt) and output (completion) tokens."""

    input_per_m: float
    output_per_m: float
    batch_discount: float = 0.0

    def cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        return (prompt_tokens * self.input_per_m + completion_tokens * self.output_per_m) / 1e6

    def text(self) -> str:
        return f"${self.input_per_m:g} / ${self.output_per_m:g} per million tokens in / out"


FREE = Price(0.0, 0.0)
"""A local or simulated model."""
FREE_KINDS = ("local", "sim")

DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00, 0.5),
    "gpt-4o-mini": Price(0.15, 0.60, 0.5),
    "gpt-4.1": Price(2.00, 8.00, 0.5),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.5),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.5),
    "o3": Price(2.00, 8.00, 0.5),
    "o4-mini": Price(1.10, 4.40, 0.5),
    "gpt-3.5-turbo": Price(0.50, 1.50, 0.5),
}
"""List prices (USD per million tokens in / out, batch discount) as published mid-2025."""


class PriceError(KGLensError, ValueError):
    """A price entry that cannot be read."""


def parse_price(text: str) -> Price:
    """ "2.50/10.00" or "2.50/10.00/0.5" as a Price; PriceError saying what is wrong."""
    parts = [p.strip().lstrip("$") for p in str(text).split("/")]
    if len(parts) not in (2, 3):
        raise PriceError(
            f'expected "INPUT/OUTPUT" dollars per million tokens, e.g. "2.50/10.00" (got {text!r})'
        )
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise PriceError(f'prices must be numbers, e.g. "2.50/10.00" (got {text!r})') from None
    if any(not math.isfinite(n) or n < 0 for n in numbers):
        raise PriceError(f"prices must be finite and not negative (got {text!r})")
    if len(numbers) == 3 and numbers[2] > 1:
        raise PriceError(f"the batch discount is a share between 0 and 1 (got {text!r})")
    return Price(*numbers)


def price_table(overrides: Mapping[str, str] | None = None) -> dict[str, Price]:
    """The defaults with the settings file's ``[prices]`` entries over them."""
    table = dict(DEFAULT_PRICES)
    for model, text in (overrides or {}).items():
        table[model] = parse_price(text)
    return table


def price_for(spec: str, table: Mapping[str, Price]) -> Price | None:
    """The price of a target or helper spec ("openai:gpt-4o", "local:smollm2", "sim:3"): FREE
    for a local or simulated model, the table's for the whole spec, else for the model it names
    (its name after the kind), None when unpriced."""
    kind = spec_kind(spec)
    if kind in FREE_KINDS:
        return FREE
    model = spec.partition(":")[2].strip() if ":" in spec else spec.strip()
    return table.get(spec.strip()) or table.get(model)


@dataclass(frozen=True)
class Spend:
    """Dollars spent by the priced roles, and the roles whose model has no price."""

    dollars: float
    unpriced: tuple[str, ...] = ()

    def text(self) -> str:
        shown = f"${self.dollars:,.2f}" if self.dollars >= 0.01 or not self.dollars else "<$0.01"
        if self.unpriced:
            return f"{shown} + unknown ({', '.join(self.unpriced)}: no price)"
        return shown


def spend(usage: Mapping[str, tuple[str, int, int]], table: Mapping[str, Price]) -> Spend:
    """Role -> (spec, prompt tokens, completion tokens) as dollars at the table's prices."""
    dollars, unpriced = 0.0, []
    for role, (spec, prompt, completion) in usage.items():
        price = price_for(spec, table)
        if price is None:
            if prompt or completion:
                unpriced.append(role)
            continue
        dollars += price.cost(prompt, completion)
    return Spend(dollars, tuple(unpriced))


@dataclass(frozen=True)
class Estimate:
    """A run's cost before it starts: requests times prompt tokens plus reply tokens, from the
    shortest plausible reply to the longest the run allows."""

    requests: int
    prompt_tokens: int
    max_reply_tokens: int
    price: Price
    low: float
    high: float

    def text(self) -> str:
        return (
            f"estimated cost ${self.low:,.2f}–${self.high:,.2f}: {self.requests:,} requests x "
            f"~{self.prompt_tokens:,} prompt tokens + 1–{self.max_reply_tokens:,} reply tokens at "
            f"{self.price.text()}"
        )


def estimate(requests: int, prompt_tokens: int, max_reply_tokens: int, price: Price) -> Estimate:
    """The cost range of ``requests`` requests of ``prompt_tokens`` each, with replies of 1 to
    ``max_reply_tokens`` tokens."""
    low = price.cost(requests * prompt_tokens, requests * 1)
    high = price.cost(requests * prompt_tokens, requests * max_reply_tokens)
    return Estimate(requests, prompt_tokens, max_reply_tokens, price, low, high)


def prompt_tokens_of(text: str) -> int:
    """A prompt's tokens, estimated: about four characters a token for English (OpenAI's rule
    of thumb; the measured counts replace it once a run has answers)."""
    return max(1, math.ceil(len(text) / 4))
