"""The head of `kglens consistency report` and `kglens facteval report`: the answer bias and
the model's scores next to what guessers that ignore the question score on the same questions,
printed before the paper's tables so that a bias is never read as knowledge."""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from kglens_tui.answers.bias import Rate
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.modes.chance import COIN, TFQ_WORDS, coverage_chance, metamorphic_chance
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.kontest.metrics import METAMORPHIC, KontestMetrics
from kglens_tui.modes.kontest.oracles import ONTOLOGICAL
from kglens_tui.textfmt import num, pct, rate_ci


class Printer(Protocol):
    """Where a report goes: a rich Console, or `Collected` (a screen's renderables)."""

    def print(self, *objects: Any, **kwargs: Any) -> None: ...


class Collected(list[RenderableType]):
    """A `Printer` that keeps what is printed, in order (console markup of a str applied), for a
    screen that shows a CLI report."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        for obj in objects:
            self.append(Text.from_markup(obj) if isinstance(obj, str) else obj)


def _warn(console: Printer, text: str) -> None:
    if text:
        console.print(Text(f"⚠ {text}", style="bold yellow"))


def _line(console: Printer, text: str) -> None:
    console.print(Text(text))


def print_kontest_chance(m: KontestMetrics, console: Printer) -> None:
    """Yes-rate, template agreement, the bias warning and the error rates against chance."""
    c = m.chance
    _line(
        console,
        f"Answers: yes-rate {c.yes_rate.text()} · {c.invalid:,} invalid (neither yes nor no) · "
        f"agreement of the two templates beyond chance (Cohen's kappa, atomic) "
        f"{num(c.template_kappa)} (chance = 0)",
    )
    _warn(console, c.warning())
    p = c.p_yes
    meta, onto, cov = m.oracle(METAMORPHIC), m.oracle(ONTOLOGICAL), m.coverage
    t = LiteralTable(
        title="Against chance: guessers that ignore the question, on the same tests",
        title_justify="left",
        caption="Error rates are over valid tests; coverage is the share of facts affirmed by a "
        "template; a coin says Yes half the time whatever the question. Every KONTEST question "
        "states a true fact, so a constant answer makes no consistency error: an error rate "
        "means little without a moderate yes-rate.",
        caption_justify="left",
    )
    t.add_column("who answers")
    measures = [("metamorphic errors", meta)] + ([("ontological errors", onto)] if m.paths else [])
    for name, _ in measures:
        t.add_column(name, justify="right")
    t.add_column("coverage", justify="right")
    t.add_row(
        "this model [95%] (n)",
        *(Rate(o.inconsistent, o.valid).text() for _, o in measures),
        cov.coverage_rate.text(),
    )
    guessers = [
        ("always Yes", 1.0, 0.0, 0.0),
        ("always No", 0.0, 0.0, 0.0),
        ("coin", COIN, metamorphic_chance(COIN), c.ontological_random),
    ]
    if p is not None:
        guessers.append(
            (f"coin at its yes-rate ({pct(p)})", p, metamorphic_chance(p), c.ontological_at_rate)
        )
    for name, p_yes, meta_chance, onto_chance in guessers:
        values = [meta_chance, onto_chance][: len(measures)]
        t.add_row(name, *(pct(v) for v in values), pct(coverage_chance(p_yes)))
    console.print(t)
    if m.paths:
        _line(
            console,
            "Ontological tests: each non-adjacent pair of a path (a node between its ends) once per "
            f"template (KONTEST 3.2, Table 3). Per pair: {m.ontological_pairs.text()} of the "
            "non-adjacent pairs are inconsistent under at least one template.",
        )


def _context(name: str) -> str:
    return "no context" if name == "none" else name


def print_facteval_chance(m: FactevalMetrics, console: Printer) -> None:
    """True/false bias and bias-corrected scores, the warning, and F1 next to chance."""
    order = {c: i for i, c in enumerate(CONTEXTS)}
    biases = sorted(m.tfq_bias, key=lambda cb: order.get(cb[0], len(order)))
    if biases:
        t = LiteralTable(
            title="True/false answers: bias and bias-corrected scores", title_justify="left"
        )
        t.add_column("context")
        t.add_column("CORRECT-rate [95%] (n)", justify="right", no_wrap=True)
        for col in ("balanced acc. (chance 0.50)", "kappa (chance 0)", "acc. true · false"):
            t.add_column(col, justify="right")
        t.add_column("no verdict", justify="right")
        for context, b in biases:
            t.add_row(
                _context(context),
                b.yes_rate.text(),
                num(b.balanced_accuracy),
                num(b.kappa),
                f"{pct(b.accuracy_expected_yes.value)} · {pct(b.accuracy_expected_no.value)}",
                f"{b.unparsed:,}",
            )
        console.print(t)
        for context, b in biases:
            if b.biased:
                _warn(console, f"TFQ, {_context(context)}: {b.warning(**TFQ_WORDS)}")
    t = LiteralTable(
        title="Against chance: F1 next to the best guesser that ignores the question",
        title_justify="left",
        caption="F1 [95%]: credible interval under a Jeffreys prior on the shares of right, wrong "
        "and abstained replies; n: questions replied to (failed requests excluded). A guesser "
        "never abstains, so its precision, recall and F1 all equal its accuracy; 'all' lets it "
        "pick the best guess per question type.",
        caption_justify="left",
    )
    for col in ("question", "context", "F1 [95%]", "chance", "n", "best blind guess"):
        t.add_column(
            col, justify="left" if col in ("question", "context", "best blind guess") else "right"
        )
    for s in m.scores:
        g = m.chance_of(s.qtype, s.format, s.context)
        best = g.best if g is not None else None
        t.add_row(
            "all" if s.qtype == "all" else f"{s.qtype.upper()} {s.format}",
            _context(s.context),
            rate_ci(s.f1, *s.f1_ci),
            pct(best.value if best else None),
            f"{s.total:,}",
            best.guesser if best else "—",
        )
    console.print(t)
