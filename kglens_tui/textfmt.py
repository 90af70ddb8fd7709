"""Plain-text formatting of numbers shared by the CLI, reports and screens."""

from __future__ import annotations


def pct(value: float | None) -> str:
    """A fraction as a percentage with one decimal, or an em dash when there is none."""
    return "—" if value is None else f"{value * 100:.1f}%"


def interval(low: float | None, high: float | None) -> str:
    """A credible or confidence interval as "[12.0–34.5]" percent ('' when there is none)."""
    if low is None or high is None:
        return ""
    return f"[{low * 100:.1f}–{high * 100:.1f}]"


def rate_ci(value: float | None, low: float | None, high: float | None) -> str:
    """A rate with its interval, "66.2% [60.9–71.0]", or an em dash when there is none (n = 0;
    give a `core.intervals.Proportion`'s value, low and high)."""
    return "—" if value is None else f"{pct(value)} {interval(low, high)}"


def signed(value: float, digits: int = 1) -> str:
    """A difference with its sign, "+5.1" or "-0.3"; one that rounds to zero as "0.0" (it
    goes neither way: "-0.0" read as a fall)."""
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def counted(n: int, noun: str, plural: str = "") -> str:
    """ "1 iteration", "2 iterations", "1,234 requests"; ``plural`` for a noun that does not
    take an s ("entities")."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def sent_note(failed: int, dropped: int) -> str:
    """ " (3 failed, 8 dropped)" after a run's request count: the requests its target failed and
    those dropped with a stopped iteration or unit; "" when there are none."""
    parts = [f"{n:,} {what}" for n, what in ((failed, "failed"), (dropped, "dropped")) if n]
    return f" ({', '.join(parts)})" if parts else ""


def failed_text(failed: int, dropped: int) -> str:
    """ "failed 3" for a live screen's counters, with " · dropped 8" when requests went with a
    stopped iteration or unit (neither answered nor failed by the target)."""
    return f"failed {failed:,}" + (f" · dropped {dropped:,}" if dropped else "")


def simulated_mark(label: str, simulated: bool) -> str:
    """ " (simulated)" to follow a target's label when the target is simulated and the label
    does not say so already ("simulated (seed 0)"); "" otherwise."""
    return " (simulated)" if simulated and "simulated" not in label else ""


def short_target(label: str) -> str:
    """A target's label in a list's short form: a simulated target's "simulated (seed 1)" as
    "sim (seed 1)" (the seed tells `sim` and `sim:1` apart); any other label as it is."""
    prefix = "simulated (seed "
    return "sim (seed " + label[len(prefix) :] if label.startswith(prefix) else label


def num(value: float | None, digits: int = 2) -> str:
    """A number with fixed decimals, or an em dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


def selection(
    kg: str, subset: str | None = None, predicates: list[str] | None = None, *, full: bool = True
) -> str:
    """What a run asks about: the KG, its subset of subjects and its predicates (all of them, or
    just how many when not ``full``), e.g. ``country/paper16 [currency, member_of]``."""
    text = kg + (f"/{subset}" if subset else "")
    if predicates:
        named = (
            ", ".join(predicates)
            if full or len(predicates) == 1
            else f"{len(predicates)} predicates"
        )
        text += f" [{named}]"
    return text
