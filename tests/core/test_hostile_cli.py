"""Every CLI command shows names, labels, replies, notes and paths literally (issue #14).

One workspace is filled with hostile strings - Rich markup (`[/]`, `[bold red]x[/]`, a lone `[`),
terminal escapes (set the window title, clear the screen), a trailing backslash, a NUL in replies
and a 100 kB label - in KG names, entity and predicate labels, aliases, types, groups, subsets,
target labels, replies, verifier reasoning, stop reasons, triage notes, annotator names, notes and
file paths. Then every subcommand of the argparse tree runs through `kglens_tui.cli.main` and its
output is checked: the expected exit status, no traceback, no control character but newline and
tab, and the hostile text shown as text.
"""

from __future__ import annotations

import argparse
import json
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer
from rich.console import Console
from wikidata_support import ReplayServer

from kglens_tui.analysis import triage
from kglens_tui.annotate.labels import flag_item, submit_label
from kglens_tui.annotate.packs import export_pack
from kglens_tui.annotate.rounds import app_judgement, create_round
from kglens_tui.cli.main import build_parser, main
from kglens_tui.core.console import console, err_console
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.kg.importers import parse_path, write_kg
from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.modes.config import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.registry import BUILTIN, get_mode, mode_names
from kglens_tui.runs.runner import prepare
from kglens_tui.runs.runner import run_blocking as run_mode
from kglens_tui.runs.runner import run_blocking as run_probe
from kglens_tui.store.connection import connect

H = "[bold red]x[/] [/] [ \x1b]0;PWNED\x07\x1b[2J end\\"
"""Markup, a lone bracket, a title-setting and a screen-clearing escape, a trailing backslash."""
P = "[bold red]x[i] [ \x1b]0;PWNED\x07\x1b[2J end\\"
"""The same in a file name (which cannot hold a slash)."""
PM = "[bold red]x[i] [ end\\"
"""A file name with markup only."""
M = "[bold red]x[/] [/] [ end\\"
"""Markup only: what a KG name given on the command line may hold (control characters are
refused there, but a workspace or an importer call can still hold them)."""
SHOWN = ("[bold red]x[", "␛]0;PWNED␇␛[2J")
"""How H and P must appear wherever they are printed."""
SHOWN_MARKUP = ("[bold red]x[/] [/] [ end\\",)
CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""C0 but newline and tab, DEL, C1, bidi controls and line separators."""
KG = f"kg {H}"
KG_MARKUP = f"kg {M}"
MODEL = f"model {H}"
CLI_MODEL = f"model {M}"
"""A model named on the command line: control characters are refused in a new run's target."""
ANNOTATORS = ("ann-a", f"ann-b {H}", "ann-c")
ROUND = f"round {H}"


def _big_label() -> str:
    unit = f"[/][bold]{H} "
    return (unit * (100_000 // len(unit) + 1))[:100_000]


def _hostile_kg(root: Path) -> Path:
    d = root / "kg"
    d.mkdir()

    def write(name: str, rows: list[dict]) -> None:
        (d / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    write(
        "entities.jsonl",
        [
            {
                "id": "a",
                "label": f"Alpha {H}",
                "aliases": [f"A {H}"],
                "type": f"place {H}",
                "groups": [f"region:{H}"],
                "description": f"about {H}",
            },
            {"id": "b", "label": "Beta", "type": "place", "groups": ["region:north"]},
            {"id": "c", "label": _big_label(), "type": "place"},
            {"id": "d", "label": "Delta", "type": "place"},
            {"id": "e", "label": f"Echo {H}", "type": "place"},
        ],
    )
    write(
        "predicates.jsonl",
        [
            {
                "id": "in",
                "label": f"located in {H}",
                "templates": {
                    "yes_no": ["Is {subject} in {object}?", "Does {subject} lie in {object}?"],
                    "wh": "Where is {subject}?",
                    "statement": "{subject} is in {object}.",
                },
            },
            {"id": "cap", "label": f"capital {H}"},
            {"id": "gone", "label": f"gone {H}", "active": False},
        ],
    )
    write(
        "triples.jsonl",
        [
            {"subject": "a", "predicate": "in", "object": "b"},
            {"subject": "b", "predicate": "in", "object": "d"},
            {"subject": "e", "predicate": "in", "object": "b"},
            {"subject": "a", "predicate": "cap", "object": "c"},
            {"subject": "d", "predicate": "cap", "object": "e", "start": "1999"},
            {"subject": "a", "predicate": "gone", "object": "e"},
        ],
    )
    (d / "subsets.json").write_text(json.dumps({f"sub {H}": ["a", "b", "e"]}), encoding="utf-8")
    return d


def _reply(prompt: str) -> str:
    """'Yes' or 'No' (from a hash of the prompt) with the hostile text, a NUL, a carriage return
    and a right-to-left override."""
    yes = zlib.crc32(prompt.encode()) % 2 == 0
    return f"{'Yes' if yes else 'No'}. {H}\x00\r\n\u202e {H}"


class HostileTarget:
    """A chat client whose label and replies are hostile."""

    simulated = False

    def __init__(self, label: str) -> None:
        self.label = label

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion(_reply(request.messages[-1]["content"]), 12, 6, 0.001)

    async def aclose(self) -> None:
        return None


class HostileJudge(HostileTarget):
    """An LLM judge that accepts every answer, with hostile reasoning."""

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion(f"Yes {H}", 30, 2, 0.001)


class FailingTarget(HostileTarget):
    """A target whose every request fails with a hostile error message."""

    async def complete(self, request: ChatRequest) -> Completion:
        raise LLMError("server", f"HTTP 500 {H}")


@dataclass
class Workspace:
    root: Path
    db: str
    runs: tuple[int, int]
    spare: int
    kontest: tuple[int, int]
    facteval: tuple[int, int]
    edge: int
    reply: int
    pack: Path
    openai_url: str
    wikidata_url: str

    def out(self, name: str) -> str:
        """A hostile output path in its own directory."""
        d = self.root / f"out {P}"
        d.mkdir(exist_ok=True)
        return str(d / name)


def _probe(conn, label: str, seed: int) -> int:
    """A KGLens run asking Yes/No and Wh questions, its Wh answers judged by a hostile judge."""
    config = RunConfig(
        kg=KG, target="sim", difficulty="hard", iterations=3, batch_size=8, seed=seed
    )
    engine = prepare(conn, config=config, target=HostileTarget(label))
    engine.judge = HostileJudge(f"judge {H}")
    return run_probe(engine).run_id


def _mode(conn, config, target: HostileTarget) -> int:
    return run_mode(prepare(conn, config=config, target=target)).run_id


def _annotate(conn, run_id: int, root: Path) -> Path:
    rnd = create_round(conn, ROUND, runs=[run_id], per_kg=None, annotators=ANNOTATORS, majority=3)
    items = conn.execute(
        "SELECT id, qtype, app_verdict FROM annotation_item WHERE round_id = ? ORDER BY position",
        (rnd.id,),
    ).fetchall()
    for n, (item_id, qtype, verdict) in enumerate(items):
        app_says = app_judgement(verdict)
        against = "incorrect" if app_says == "correct" else "correct"
        for k, name in enumerate(ANNOTATORS):
            # even items: all three overrule the app; odd items: split votes, no majority
            split = n % 2 == 1 and k == 0
            submit_label(
                conn,
                item_id,
                name,
                question_clear="no" if split else "yes",
                response_correct=(app_says if split else against) if qtype == "wh" else None,
                seconds=3.0,
            )
        flag_item(conn, item_id, ANNOTATORS[1], f"note {H}")
    return export_pack(conn, rnd.id, ANNOTATORS[1], root / f"pack {P}.jsonl")


_MASKS = {"\\u001b": "\x1b", "\\u0007": "\x07"}
"""The control characters of H as JSON writes them, and as they are stored."""


def _store_hostile_kg(conn, kg_dir: Path, name: str) -> None:
    """Store the hostile KG as it is. `kg import` refuses control characters in KG files, but a
    workspace can still hold them (an older workspace, another writer), and every command must
    show them literally: parse a masked copy, put the control characters back, write it."""
    masked = kg_dir.with_name("kg-masked")
    if not masked.exists():
        masked.mkdir()
        for path in kg_dir.iterdir():
            text = path.read_text(encoding="utf-8")
            for escaped in _MASKS:
                text = text.replace(escaped, f"<{escaped[2:]}>")
            (masked / path.name).write_text(text, encoding="utf-8")

    def unmask(text: str) -> str:
        for escaped, char in _MASKS.items():
            text = text.replace(f"<{escaped[2:]}>", char)
        return text

    parsed = parse_path(masked)
    for e in parsed.entities:
        e.label, e.type, e.description = unmask(e.label), unmask(e.type), unmask(e.description)
        e.aliases, e.groups = [unmask(a) for a in e.aliases], [unmask(g) for g in e.groups]
    for p in parsed.predicates:
        p.label = unmask(p.label)
    parsed.subsets = {unmask(k): v for k, v in parsed.subsets.items()}
    write_kg(conn, parsed, name, source=str(kg_dir))


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("hostile")
    db = root / "ws.db"
    conn = connect(db)
    kg_dir = _hostile_kg(root)
    for name in (KG, KG_MARKUP, f"rm {H}", f"old {H}"):
        _store_hostile_kg(conn, kg_dir, name)
    runs = (_probe(conn, f"target {H}", 0), _probe(conn, MODEL, 1))
    spare = _probe(conn, f"spare {H}", 2)
    kontest = KontestConfig(kg=KG, target="sim", relations=None, transitive=["in"])
    kontest_runs = (
        _mode(conn, kontest, HostileTarget(f"kontest {H}")),
        _mode(conn, replace(kontest, seed=1), HostileTarget(MODEL)),
    )
    facteval = FactevalConfig(kg=KG, target="sim", facts=None, formats=["fib", "wh"])
    facteval_runs = (
        _mode(conn, facteval, HostileTarget(f"facteval {H}")),
        _mode(conn, facteval, FailingTarget(f"failing {H}")),
    )
    edge = conn.execute(
        "SELECT o.edge_id FROM observation o JOIN edge e ON e.id = o.edge_id "
        "JOIN entity s ON s.id = e.subject_id JOIN predicate p ON p.id = e.predicate_id "
        "WHERE o.run_id = ? AND s.key = 'a' AND p.key = 'in' "
        "ORDER BY o.id LIMIT 1",
        (runs[0],),
    ).fetchone()[0]
    reply = conn.execute(
        "SELECT id FROM observation WHERE run_id = ? AND edge_id = ? ORDER BY id LIMIT 1",
        (runs[0], edge),
    ).fetchone()[0]
    who = {"author": f"who {H}"}
    triage.mark_kg_error(conn, edge_id=edge, reason=f"kg wrong {H}", seen_in_run=runs[0], **who)
    triage.add_note(conn, f"note {H}", run_id=runs[0], edge_id=edge, **who)
    # entry 3, for the retract case: retracting entry 1 (the KG error) would empty the kg-errors
    # review for whichever case runs after it in the same worker
    triage.add_note(conn, f"to retract {H}", run_id=runs[0], edge_id=edge, **who)
    pack = _annotate(conn, runs[0], root)
    conn.close()
    with (
        FakeOpenAIServer(
            models=(MODEL, CLI_MODEL), answer_fn=lambda m: _reply(m[-1]["content"])
        ) as ai,
        ReplayServer() as wikidata,
    ):
        yield Workspace(
            root,
            str(db),
            runs,
            spare,
            kontest_runs,
            facteval_runs,
            edge,
            reply,
            pack,
            ai.base_url,
            wikidata.endpoint,
        )


@dataclass(frozen=True)
class Case:
    command: tuple[str, ...]
    args: Callable[[Workspace], list[str]]
    code: int = 0
    shown: tuple[str, ...] = SHOWN
    """Texts that must appear in the output (on stderr for a failing command)."""


def _c(*command: str, args=lambda w: [], code: int = 0, shown: tuple[str, ...] = SHOWN) -> Case:
    return Case(command, args, code, shown)


def _verifier_data(w: Workspace) -> Path:
    """A labelled reply the verifier gets wrong, so --misses prints its hostile text."""
    path = w.root / "verifier.jsonl"
    record = {
        "id": f"h {H}",
        "source": f"hand {H}",
        "kg": "country",
        "predicate": "capital",
        "object_type": "city",
        "qtype": "wh",
        "question": f"What is the capital of {H}?",
        "expected": "",
        "answers": [["Rome"]],
        "reply": f"It is Rome {H}",
        "label": "incorrect",
        "hedged": False,
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def _openai(w: Workspace) -> list[str]:
    return ["--target", f"openai:{CLI_MODEL}", "--base-url", w.openai_url]


CASES = {
    "kg-list": _c("kg", "list"),
    "kg-import-dir": _c(  # control characters in a KG file are refused, shown literally
        "kg",
        "import",
        args=lambda w: [str(w.root / "kg"), "--name", f"dir {M}"],
        code=2,
    ),
    "kg-import-dir-refused-name": _c(
        "kg", "import", args=lambda w: [str(w.root / "kg"), "--name", f"2 {H}"], code=2
    ),
    "kg-import-csv": _c(
        "kg",
        "import",
        args=lambda w: [_hostile_csv(w.root, f"csv {PM}")],
        shown=(f"csv {PM}",),
    ),
    "kg-import-csv-refused-name": _c(
        "kg", "import", args=lambda w: [_hostile_csv(w.root, f"csv {P}")], code=2
    ),
    "kg-import-exists": _c(
        "kg",
        "import",
        args=lambda w: [str(w.root / "kg"), "--name", KG_MARKUP],
        code=2,
        shown=SHOWN_MARKUP,
    ),
    "kg-rm": _c("kg", "rm", args=lambda w: [f"rm {H}", "--yes"]),
    "kg-rm-unconfirmed": _c("kg", "rm", args=lambda w: [KG], code=2),
    "kg-rename": _c("kg", "rename", args=lambda w: [f"old {H}", f"new {M}"]),
    "kg-rename-refused-name": _c("kg", "rename", args=lambda w: [KG_MARKUP, f"bad {H}"], code=2),
    "kg-stats": _c("kg", "stats", args=lambda w: [KG]),
    "kg-stats-unknown": _c("kg", "stats", args=lambda w: [f"nope {H}"], code=2),
    "kg-show": _c("kg", "show", args=lambda w: [KG, "a"]),
    "kg-show-big-label": _c("kg", "show", args=lambda w: [KG, "c"]),
    "kg-show-unknown": _c("kg", "show", args=lambda w: [KG, f"nope {H}"], code=2),
    "kg-build-wikidata": _c(
        "kg",
        "build-wikidata",
        args=lambda w: [
            "--seeds",
            "Q30,Q183",
            "--steps",
            "1",
            "--name",
            f"wd {M}",
            "--endpoint",
            w.wikidata_url,
            "--cache",
            w.out("cache"),
            "--contact",
            "kglens-tests@example.org",
        ],
        shown=SHOWN_MARKUP,
    ),
    "kg-build-wikidata-refused-name": _c(
        "kg", "build-wikidata", args=lambda w: ["--seeds", "Q30", "--name", f"wd {H}"], code=2
    ),
    "probe": _c(
        "probe",
        args=lambda w: [
            "--no-tui",
            "--quiet",
            "--kg",
            KG,
            "--subset",
            f"sub {H}",
            *_openai(w),
            "--iterations",
            "2",
            "--batch-size",
            "4",
            "--concurrency",
            "2",
        ],
    ),
    "runs": _c("runs"),
    "runs-rm": _c("runs", "rm", args=lambda w: [str(w.spare), "--yes"]),
    "runs-rm-unconfirmed": _c("runs", "rm", args=lambda w: [str(w.runs[0])], code=2),
    "stop-not-going": _c("stop", args=lambda w: [str(w.runs[0])], code=2, shown=()),
    "pause-not-going": _c("pause", args=lambda w: [str(w.runs[0])], code=2, shown=()),
    "report": _c("report", args=lambda w: [str(w.runs[0])]),
    "report-judged": _c("report", args=lambda w: [str(w.runs[1])]),
    "search": _c("search", args=lambda w: ["PWNED"]),
    "bench-curves-bad": _c(
        "bench", "curves", args=lambda w: [_bad_curves(w)], code=2, shown=SHOWN[:1]
    ),  # fmt: skip
    "search-fts-syntax": _c("search", args=lambda w: [f'NEAR( "x* {H}'], shown=SHOWN[:1]),
    "search-nothing": _c("search", args=lambda w: ["  "], code=2, shown=()),
    "search-symbols": _c("search", args=lambda w: ["* ( ) [/]"], shown=("* ( ) [/]",)),
    "study-prompt-order": _c(
        "study",
        "prompt-order",
        args=lambda w: ["--kg", KG, *_openai(w), "--questions", "4", "--concurrency", "2"],
        shown=SHOWN_MARKUP,  # the target named on the command line: markup only
    ),
    "bench-ui": _c("bench", "ui", args=lambda w: ["--presses", "2"], shown=()),
    "bench-verifier": _c(
        "bench", "verifier", args=lambda w: ["--data", str(_verifier_data(w)), "--misses"]
    ),
    "bench-import": _c(
        "bench", "import", args=lambda w: ["--triples", "300", "--entities", "30"], shown=()
    ),
    "bench-engine": _c(
        "bench",
        "engine",
        args=lambda w: [
            "--sizes",
            "100",
            "--iterations",
            "1",
            "--warmup",
            "0",
            "--latency-ms",
            "1",
            "--concurrency",
            "2",
            "--throughput-iterations",
            "1",
            "--long-iterations",
            "0",
        ],
        shown=(),
    ),
    "bench-rates": _c(
        "bench",
        "rates",
        args=lambda w: [
            "--kg",
            KG,
            "--subset",
            "",
            "--settings",
            "as-is",
            "--methods",
            "thompson",
            "--floors",
            "1",
            "--replays",
            "2",
            "--k",
            "2",
            "--batch-size",
            "2",
        ],
    ),
    "bench-sampling": _c(
        "bench",
        "sampling",
        args=lambda w: [
            "--kg",
            KG,
            "--methods",
            "paper",
            "--budget-epochs",
            "2",
            "--reference-epochs",
            "1",
            "--seeds",
            "1",
            "--k",
            "2",
            "--batch-size",
            "2",
            "--no-throughput",
            "--csv",
            w.out("curves.csv"),
            "--plot",
            w.out("chart.svg"),
        ],
    ),
    "annotate-round-create": _c(
        "annotate",
        "round",
        "create",
        args=lambda w: [
            "--runs",
            str(w.runs[0]),
            "--per-kg",
            "0",
            "--name",
            f"second {M}",
            "--annotators",
            f"ann-a,ann-b {M},ann-c",
            "--majority",
            "2",
        ],
        shown=SHOWN_MARKUP,
    ),
    # control characters are refused in round and annotator names given on the command line
    "annotate-round-create-refused-name": _c(
        "annotate",
        "round",
        "create",
        args=lambda w: ["--runs", str(w.runs[0]), "--name", f"third {H}"],
        code=2,
    ),
    "annotate-round-create-refused-annotator": _c(
        "annotate",
        "round",
        "create",
        args=lambda w: ["--runs", str(w.runs[0]), "--name", "fourth", "--annotators", H],
        code=2,
    ),
    "annotate-rounds": _c("annotate", "rounds"),
    "annotate-progress": _c("annotate", "progress", args=lambda w: [ROUND]),
    "annotate-report": _c("annotate", "report", args=lambda w: [ROUND]),
    # the message quotes the unknown name with repr(): escapes as text, checked below all the same
    "annotate-report-unknown": _c(
        "annotate", "report", args=lambda w: [f"nope {H}"], code=2, shown=()
    ),
    "annotate-export": _c(
        "annotate",
        "export",
        args=lambda w: [ROUND, "--annotator", ANNOTATORS[1], "-o", w.out("pack.jsonl")],
    ),
    "annotate-import": _c("annotate", "import", args=lambda w: [str(w.pack)]),
    "consistency-run": _c(
        "consistency",
        "run",
        args=lambda w: [
            "--quiet",
            "--kg",
            KG,
            *_openai(w),
            "--relations",
            "all",
            "--transitive",
            "in",
            "--concurrency",
            "2",
        ],
    ),
    "consistency-report": _c("consistency", "report", args=lambda w: [str(w.kontest[0])]),
    "run": _c(  # any mode through the harness, its settings by name
        "run",
        args=lambda w: [
            "kontest",
            "--quiet",
            "--set",
            f"kg={KG}",
            "--set",
            f"target=openai:{CLI_MODEL}",
            "--set",
            f"base_url={w.openai_url}",
            "--set",
            "relations=3",
        ],
        shown=(),
    ),
    "run-unknown-kg": _c("run", args=lambda w: ["facteval", "--set", f"kg=nope {H}"], code=2),
    "resume": _c("resume", args=lambda w: [str(w.kontest[0]), "--quiet"], shown=()),
    "consistency-ensemble": _c(
        "consistency",
        "ensemble",
        args=lambda w: [*map(str, w.kontest), "--folds", "1"],
        shown=(),
    ),
    "consistency-paths": _c("consistency", "paths", args=lambda w: ["--kg", KG]),
    "consistency-paths-unknown": _c(
        "consistency", "paths", args=lambda w: ["--kg", f"nope {H}"], code=2
    ),
    "consistency-list": _c("consistency", "list"),
    "consistency-compare": _c("consistency", "compare", args=lambda w: [*map(str, w.kontest)]),
    "facteval-run": _c(
        "facteval",
        "run",
        args=lambda w: ["--quiet", "--kg", KG, *_openai(w), "--facts", "all", "--concurrency", "2"],
    ),
    "facteval-report": _c("facteval", "report", args=lambda w: [str(w.facteval[0])]),
    "facteval-report-failed": _c("facteval", "report", args=lambda w: [str(w.facteval[1])]),
    "facteval-list": _c("facteval", "list"),
    "facteval-compare": _c("facteval", "compare", args=lambda w: [*map(str, w.facteval)]),
    "review": _c("review", args=lambda w: [str(w.runs[0])]),
    "review-kg-errors": _c("review", args=lambda w: [str(w.runs[0]), "--kind", "kg-errors"]),
    "review-edge": _c("review", args=lambda w: [str(w.runs[0]), "--edge", str(w.edge)]),
    "review-edge-json": _c(
        "review",
        args=lambda w: [str(w.runs[0]), "--edge", str(w.edge), "--json", w.out("edge.json")],
    ),
    "analyze": _c("analyze", args=lambda w: [str(w.runs[0]), "--error-types"]),
    "analyze-subject-csv": _c(
        "analyze", args=lambda w: [str(w.runs[0]), "--by", "subject", "--csv", w.out("g.csv")]
    ),
    "analyze-group": _c("analyze", args=lambda w: [str(w.runs[0]), "--by", "group"]),
    "analyze-grid": _c(  # labels truncated in the grid: the markup shows, the escapes are cut
        "analyze", args=lambda w: [str(w.runs[0]), "--grid"], shown=SHOWN[:1]
    ),
    "compare": _c("compare"),
    "compare-two": _c("compare", args=lambda w: [*map(str, w.runs), "--by", "predicate"]),
    "triage-confirm": _c(
        "triage",
        "confirm",
        args=lambda w: [str(w.runs[0]), str(w.edge), "--reason", H, "--author", H],
        shown=(),
    ),
    "triage-kg-error": _c(
        "triage", "kg-error", args=lambda w: ["--reply", str(w.reply), "--reason", H], shown=()
    ),
    "triage-verifier-error": _c(
        "triage", "verifier-error", args=lambda w: [str(w.reply), "--reason", H], shown=()
    ),
    "triage-note": _c("triage", "note", args=lambda w: [H, "--reply", str(w.reply)], shown=()),
    "triage-tag": _c(
        "triage",
        "tag",
        args=lambda w: ["factual-error", "--reply", str(w.reply), "--reason", H],
        shown=(),
    ),
    "triage-retract": _c("triage", "retract", args=lambda w: ["3", "--reason", H], shown=()),
    "triage-reverify": _c("triage", "reverify", args=lambda w: [str(w.runs[0])], shown=()),
    "triage-log": _c("triage", "log", args=lambda w: ["--run", str(w.runs[0])]),
    "triage-corrections": _c("triage", "corrections", args=lambda w: [KG]),
    "triage-corrections-out": _c(
        "triage", "corrections", args=lambda w: [KG, "--out", w.out("fixes.csv")]
    ),
    "export": _c(
        "export",
        args=lambda w: [
            str(w.runs[0]),
            "--csv",
            w.out("edges.csv"),
            "--replies",
            w.out("replies.jsonl"),
            "--html",
            w.out("report.html"),
        ],
    ),
    "ego": _c("ego", args=lambda w: [str(w.runs[0]), "a"]),
    "ego-json": _c("ego", args=lambda w: [str(w.runs[0]), "a", "--json", w.out("ego.json")]),
}


def _bad_curves(w: Workspace) -> str:
    """A study CSV whose first row has hostile text where a number belongs."""
    path = w.root / "curves.csv"
    path.write_text(
        "truth,method,seed,requests,epochs,g_top100\n"
        f"as-is,brute force,0,64,0.1,{H.replace(',', ' ')}\n".replace("\r", " "),
        encoding="utf-8",
    )
    return str(path)


SKIPPED = {
    (): "no command opens the Textual app (the TUI screens are checked by their own tests)",
    ("annotate", "tui"): "opens the Textual app (the TUI screens are checked by their own tests)",
    ("serve",): "serves the annotation app until interrupted and needs textual-serve",
}


def _hostile_csv(root: Path, stem: str) -> str:
    """A triples CSV named `stem` (the KG name by default) with markup in its labels (control
    characters would be refused)."""
    path = root / f"{stem}.csv"
    if not path.exists():
        rows = [
            "subject,predicate,object",
            f'"S {M}","p {M}","O {M}"',
            f'"T {M}","p {M}","O {M}"',
        ]
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs or not subs[0].required:
        yield path
    if not subs:
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, (*path, name))


def _test_plugin_groups() -> set[str]:
    """The command groups of modes registered outside the built-in ones (tests/toy_mode.py's):
    in the parser only when a test of this process imported them first."""
    groups = (get_mode(name).command_group for name in mode_names() if name not in BUILTIN)
    return {group.name for group in groups if group is not None}


def test_every_subcommand_is_run_or_skipped_with_a_reason() -> None:
    plugins = _test_plugin_groups()
    leaves = {leaf for leaf in _leaves(build_parser()) if leaf[:1] not in {(g,) for g in plugins}}
    covered = {case.command for case in CASES.values()}
    assert leaves - covered - set(SKIPPED) == set(), "add a case for each new command"
    assert covered | set(SKIPPED) <= leaves


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide, colourless terminal (as with output to a pipe) for both consoles."""
    for c in (console, err_console):
        monkeypatch.setattr(c, "width", 1000)
        monkeypatch.setattr(c, "_force_terminal", False)
        monkeypatch.setattr(c, "_color_system", None)


@pytest.mark.parametrize("name", list(CASES))
def test_command_shows_hostile_text_literally(
    name: str, ws: Workspace, wide: None, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    argv = [*case.command, *case.args(ws)]
    assert main(["--db", ws.db, *argv]) == case.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    for stream in (out, err):
        bad = sorted({hex(ord(ch)) for ch in CONTROL.findall(stream)})
        assert not bad, f"control characters {bad} in {argv}"
    for text in case.shown:
        assert text in (err if case.code else out + err), f"{text!r} not shown by {argv}"
    if case.code:
        assert err.startswith("error: "), err


def test_replies_and_notes_are_in_the_review_and_annotation_output(
    ws: Workspace, wide: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", ws.db, "review", str(ws.runs[0]), "--edge", str(ws.edge)]) == 0
    out = capsys.readouterr().out
    reply = re.compile(r"│ (Yes|No)\. \[bold red\]x\[/\] \[/\] \[ ␛\]0;PWNED␇␛\[2J end\\␀⏎\u21c4")
    assert len(reply.findall(out)) >= 2, out
    assert "│ llm judge (judge [bold " in out  # a Wh reply, judged
    assert "kg wrong [bold red]x[/] [/] [ ␛]0;PWNED␇␛[2J end\\;" in out  # the triage trail
    assert main(["--db", ws.db, "annotate", "report", ROUND]) == 0
    out = capsys.readouterr().out
    disagreements = out.split("Majority disagrees with the app (")[1].split("All labels in")[0]
    assert int(disagreements.split(")")[0]) > 0
    # the model's response, cut to the column's 40 characters
    assert re.search(r"│ (Yes|No)\. \[bold red\]x\[/\] \[/\] \[ ␛\]0;PWNED␇", disagreements)
    assert "│ note [bold red]x[/] [/] [ ␛]0;PWNED␇␛[2J end\\ │" in out
    assert "ann-b [bold red]x[/] [/] [ ␛]0;PWNED␇␛[2J end\\" in out
    assert "All labels in, no majority" in out


def test_markup_literal_keeps_a_final_backslash_whatever_follows() -> None:
    shown = Console(width=200, color_system=None, record=True)
    text = markup_literal("end\\")
    shown.print(f"[b]{text}[/b] then {text}", soft_wrap=True)
    assert re.sub("[\u200b\u2060]", "", shown.export_text()) == "end\\ then end\\\n"


def test_literal_table_headers_are_literal() -> None:
    table = LiteralTable()
    table.add_column(f"model {H}")
    table.add_row("1")
    shown = Console(width=200, color_system=None, record=True)
    shown.print(table)
    assert "model [bold red]x[/] [/] [ ␛]0;PWNED␇" in shown.export_text()


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_an_emoji_code_in_untrusted_text_prints_as_written(capsys, stream: str) -> None:
    """Rich turns ":smile:" into an emoji in a printed string; a reply, an error body or a
    label must show as received."""
    from kglens_tui.core.console import console, err_console

    out = console if stream == "stdout" else err_console
    out.print(f"reply: {markup_literal(':smile: :warning: United Nations')}")
    shown = getattr(capsys.readouterr(), "out" if stream == "stdout" else "err")
    assert ":smile: :warning: United Nations" in shown and "😄" not in shown
