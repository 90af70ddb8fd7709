"""A toy probing mode, added as one module plus registration and no edit to the harness: it asks
each KG edge's statement and scores the reply yes or no. Imported by the harness tests (and by a
run's child process, which imports the module that registered the mode)."""

from __future__ import annotations

from dataclasses import dataclass

from kglens_tui.llm.base import QuestionMeta
from kglens_tui.runs.answers import load_latest_answers
from kglens_tui.runs.commands import CommandGroup, ModeCommand
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.edge_units import EdgeUnitEngine, EdgeUnitMode
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.panel_rich import print_panels
from kglens_tui.runs.panels import Panel, PanelRow
from kglens_tui.runs.registry import register
from kglens_tui.runs.setting import setting
from kglens_tui.runs.units import ModeSnapshot

TOY = "toy"


@dataclass
class ToyConfig(ModeConfig):
    mode: str = TOY
    edges: int | None = setting(
        12, "How many of the KG's active edges to ask (the first ones); None = all."
    )
    max_tokens: int = 8


@dataclass(frozen=True)
class ToyMetrics:
    yes: int
    answered: int

    def table(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """Columns and rows for a live screen."""
        return ("answer", "n"), [("yes", str(self.yes)), ("answered", str(self.answered))]


class ToyEngine(EdgeUnitEngine):
    mode = TOY
    kind = "statement"

    def question(self, unit: int, edge: int) -> tuple[str, QuestionMeta]:
        kg = self.kg
        s, p, o = int(kg.s[edge]), int(kg.p[edge]), int(kg.o[edge])
        meta = QuestionMeta(
            key=f"toy{unit}",
            edge_id=int(kg.edge_ids[edge]),
            subject=kg.entity_keys[s],
            predicate=kg.pred_keys[p],
            object=kg.entity_keys[o],
            qtype="yes_no",
            expected="yes",
        )
        return f"Is it true that {kg.labels[s]} {kg.pred_labels[p]} {kg.labels[o]}?", meta

    def label(self, reply: str) -> str:
        return "yes" if reply.lower().startswith("yes") else "no"

    def compute_metrics(self) -> ToyMetrics:
        answered = [a for a in self.answers.values() if not a.failed]
        return ToyMetrics(sum(a.label == "yes" for a in answered), len(answered))


def _report(args, conn) -> int:
    print_panels(MODE.report_panels(conn, args.run))
    return 0


def _report_arguments(parser) -> None:
    parser.add_argument("run", type=int)


GROUP = CommandGroup(
    "toy",
    "the toy mode: a statement per edge",
    "ask each edge's statement",
    "edges",
    "edges to ask (the first ones) or 'all'",
    (ModeCommand("report", "a toy run's answers", _report, _report_arguments),),
)
"""`kglens toy run|report|list`, as the command line adds any mode's group."""


class ToyMode(EdgeUnitMode):
    name = TOY
    label = "toy"
    command_group = GROUP
    config_type = ToyConfig
    engine_type = ToyEngine

    def plan(self, conn, kg, config: ToyConfig) -> list[int]:
        active = kg.edge_ids[kg.active_mask]
        if not len(active):
            raise ConfigError(f"KG '{kg.name}' has no active edge")
        return [int(e) for e in active[: config.edges]]

    def live_panels(self, snapshot) -> list[Panel]:
        """One table: the answers counted, and the latest reply as the model wrote it."""
        metrics = snapshot.metrics if isinstance(snapshot, ModeSnapshot) else None
        if not isinstance(metrics, ToyMetrics):
            return []
        rows = [PanelRow(answer, (answer, n)) for answer, n in metrics.table()[1]]
        recent = snapshot.progress.recent
        if recent:
            rows.append(PanelRow("latest", ("latest reply", recent[-1].reply)))
        return [Panel("toy", "Toy answers", ("answer", "n"), tuple(rows), notes=("toy notes",))]

    headline_note = "toy: the Yes replies of those answered"

    def headline_of(self, metrics: ToyMetrics) -> Headline:
        """The yes-share of a run, as home and `kglens runs` show a mode's headline."""
        text = f"toy yes {metrics.yes} of {metrics.answered}"
        return Headline(text, text)

    def report_figures(self, conn, run, metrics: ToyMetrics, latest: int) -> list[Panel]:
        """The answers counted, and the latest replies as the model wrote them."""
        rows = [PanelRow(answer, (answer, n)) for answer, n in metrics.table()[1]]
        replies = load_latest_answers(conn, run.id, latest)
        rows += [PanelRow(f"reply {a.unit}", ("reply", a.reply)) for a in replies]
        return [Panel("toy", "toy answers", ("answer", "n"), tuple(rows), align="lr")]

    def comparison(self, conn, run_id: int):
        """Nothing to compare a toy run with."""
        raise ValueError(f"a toy run has nothing to compare run {run_id} with")


MODE = register(ToyMode())
__all__ = ["MODE", "TOY", "ToyConfig", "ToyEngine", "ToyMetrics"]
