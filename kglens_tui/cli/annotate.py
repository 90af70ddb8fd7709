"""`kglens annotate ...`: create rounds, show progress and the report, export and import packs."""

from __future__ import annotations

import argparse
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from kglens_tui.annotate.adjudication import DECISION_LABELS
from kglens_tui.annotate.errors import AnnotationError, item_ref
from kglens_tui.annotate.packs import export_pack, import_pack
from kglens_tui.annotate.progress import progress
from kglens_tui.annotate.rounds import (
    DEFAULT_ANNOTATORS,
    annotator_names,
    check_name,
    create_round,
    get_round,
    list_rounds,
    round_mix,
)
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import console, print_error
from kglens_tui.core.question_type import WH
from kglens_tui.core.safetext import LiteralTable, markup_literal, visible
from kglens_tui.core.safewrite import ExportError
from kglens_tui.core.table_options import add_table_options
from kglens_tui.core.verdict import UNCERTAIN, WH_MATCHER
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import counted, pct

if TYPE_CHECKING:
    from kglens_tui.annotate.agreement import ItemResult

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]


def _ids(text: str | None, option: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise AnnotationError(f"{option} takes comma-separated ids (got {text!r})") from exc


CREATE_FLAGS = {
    "majority": "--majority",
    "raters_per_item": "--raters-per-item",
    "calibration_size": "--calibration",
    "per_kg": "--per-kg",
}
"""How `round create`'s errors name the settings it takes."""


def cmd_round_create(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    name = check_name(args.name, "--name")
    annotators = annotator_names(args.annotators, "--annotators")
    observations = _ids(args.observations, "--observations")
    if args.disagreements or args.uncertain:
        observations = [*(observations or []), *_review_ids(conn, args)]
        if not observations:
            raise AnnotationError(
                "no reply of these runs to review: no judge disagreement or uncertain verdict"
            )
    per_kg = args.per_kg if args.per_kg is not None else (None if observations else 100)
    rnd = create_round(
        conn,
        name,
        runs=_ids(args.runs, "--runs"),
        observation_ids=observations,
        edge_ids=_ids(args.edges, "--edges"),
        per_kg=per_kg or None,
        seed=args.seed,
        annotators=annotators,
        majority=args.majority,
        raters_per_item=args.raters_per_item,
        calibration_size=args.calibration,
        setting_names=CREATE_FLAGS,
    )
    parts = round_mix(conn, rnd.id)
    console.print(
        f"round {rnd.id} '{markup_literal(rnd.name)}': {counted(rnd.items, 'item')} ({markup_literal(parts)}); "
        f"annotators {markup_literal(', '.join(rnd.annotators))}; {rnd.raters} per item; "
        f"majority {rnd.settings.majority} of {rnd.raters}"
    )
    return 0


def _review_ids(conn: sqlite3.Connection, args: argparse.Namespace) -> list[int]:
    """Observation ids of Wh replies that want a person's look: where the LLM judge and the
    alias matcher disagree (``--disagreements``), where the matcher's rules could not decide
    (``--uncertain``); of the runs named (all runs without ``--runs``)."""
    wanted = []
    if args.disagreements:
        wanted.append("(matcher != '' AND matcher != category)")
    if args.uncertain:
        wanted.append(f"verifier = '{WH_MATCHER} ({UNCERTAIN})'")
    sql = f"SELECT id FROM observation WHERE ({' OR '.join(wanted)})"
    runs = _ids(args.runs, "--runs")
    params: list[int] = []
    if runs:
        sql += f" AND run_id IN ({','.join('?' * len(runs))})"
        params = list(runs)
    return [int(i) for (i,) in conn.execute(sql + " ORDER BY id", params)]


def cmd_rounds(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    table = LiteralTable(title="Annotation rounds", title_justify="left")
    for col in ("id", "name", "created", "items", "annotators", "majority", "source"):
        table.add_column(col, justify="right" if col in ("id", "items") else "left")
    for rnd in list_rounds(conn):
        src = rnd.source
        source = "; ".join(
            f"{key.replace('_', ' ')} {', '.join(map(str, src[key][:8]))}"
            + (" ..." if len(src[key]) > 8 else "")
            for key in ("runs", "observation_ids", "edge_ids")
            if src.get(key)
        )
        table.add_row(
            str(rnd.id),
            rnd.name,
            rnd.created_at,
            f"{rnd.items:,}",
            ", ".join(rnd.annotators),
            f"{rnd.settings.majority} of {rnd.raters}",
            source or "hand-built",
        )
    console.print(table)
    return 0


def cmd_progress(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    rnd = get_round(conn, args.round)
    # no outer edge and short headings: at 80 columns every heading and figure fits whole
    table = LiteralTable(
        title=f"Progress of round '{rnd.name}'",
        caption="min: minutes recorded · s/item: seconds per item done",
        title_justify="left",
        caption_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    for col in ("annotator", "done", "%", "labelled", "skipped", "flagged", "min", "s/item"):
        table.add_column(col, justify="left" if col == "annotator" else "right", no_wrap=True)
    for p in progress(conn, rnd.id):
        per = p.seconds_per_item
        table.add_row(
            p.annotator,
            f"{p.done:,} of {p.total:,}",
            f"{p.share:.0%}",
            f"{p.labelled:,}",
            f"{p.skipped:,}",
            f"{p.flagged:,}",
            f"{p.seconds / 60:,.1f}",
            "—" if per is None else f"{per:,.1f}",
        )
    console.print(table)
    return 0


def _votes(item: ItemResult, question: str) -> str:
    counts = Counter(
        getattr(s, question) for s in item.labels.values() if getattr(s, question) is not None
    )
    return " / ".join(f"{n} {value}" for value, n in counts.most_common()) or "no votes"


def _short(text: str | None, width: int = 60) -> str:
    return visible(text, one_line=True, limit=width)


def cmd_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.annotate.agreement import (  # numpy + krippendorff: load lazily
        ALPHA_LEGEND,
        KAPPA_LEGEND,
        NO_DISAGREEMENT,
        round_results,
    )

    res = round_results(conn, args.round)
    rnd = res.round
    console.print(
        f"[bold]Round {rnd.id} '{markup_literal(rnd.name)}'[/] · {counted(rnd.items, 'item')} · "
        f"annotators {markup_literal(', '.join(rnd.annotators))} · majority "
        f"{rnd.settings.majority} of {rnd.raters}"
    )
    caption = (
        "Each rate is over the items with the final label it needs (majority or adjudication): "
        "n of them, with its 95% interval"
    )
    if any(c.averaged for c in res.table4):
        caption += "; Average is the mean of the KG columns"
    t4 = LiteralTable(
        title="Human assessment (paper Table 4): majority vote of the annotators",
        caption=caption,
        title_justify="left",
        caption_justify="left",
    )
    t4.add_column("")
    for col in res.table4:
        t4.add_column(col.name, justify="right")
    rows = (
        ("QG", "qg"),
        ("- Wh-question", "qg_wh"),
        ("- Yes/No-question", "qg_yes_no"),
        ("QAV (Wh)", "qav"),
        ("QG+QAV", "qg_qav"),
    )
    for label, attr in rows:
        t4.add_row(label, *(c.cell(attr) for c in res.table4))
    t4.add_row(
        Text("items (Wh + Yes/No)", "dim"),
        *(Text(f"{c.wh} + {c.yes_no}", "dim") for c in res.table4),
    )
    console.print(t4)
    note = res.not_counted_note()
    if note:
        console.print(Text(note, "yellow"))

    undefined = any(q.one_value for q in res.agreement.values())
    agree = LiteralTable(
        title="Inter-annotator agreement",
        title_justify="left",
        caption=ALPHA_LEGEND if undefined else None,
        caption_justify="left",
    )
    for heading in ("question", "items compared", "Krippendorff α (nominal)", "percent agreement"):
        agree.add_column(heading, justify="left" if heading == "question" else "right")
    for q in res.agreement.values():
        agree.add_row(q.question, f"{q.items:,}", q.alpha_cell(), pct(q.percent))
    console.print(agree)
    for q in res.agreement.values():
        km = LiteralTable(title=f"Cohen's κ, {q.question}", title_justify="left")
        km.add_column("")
        for name in q.annotators:
            km.add_column(name, justify="right")
        for a, name in enumerate(q.annotators):
            km.add_row(name, *(q.kappa_cell(a, b) for b in range(len(q.annotators))))
        console.print(km)
    console.print(Text(KAPPA_LEGEND, "dim"))

    if res.disagreements:
        dis = LiteralTable(
            title=f"Majority disagrees with the app ({len(res.disagreements)})",
            title_justify="left",
        )
        for heading in ("item", "kg", "question", "response", "app", "humans", "votes"):
            dis.add_column(heading, justify="right" if heading == "item" else "left")
        for it in res.disagreements:
            dis.add_row(
                item_ref(it.item_id),
                it.kg,
                _short(it.question),
                _short(it.response, 40),
                it.app_verdict,
                (it.human_correct or "") + (" (adjudicated)" if it.adjudication else ""),
                _votes(it, "response_correct"),
            )
        console.print(dis)
    else:
        console.print(NO_DISAGREEMENT)
    if res.undecided:
        und = LiteralTable(
            title=f"All labels in, no majority: adjudicate ({len(res.undecided)})",
            title_justify="left",
        )
        for heading in ("item", "kg", "type", "question clear", "response correct"):
            und.add_column(heading, justify="right" if heading == "item" else "left")
        for it in res.undecided:
            und.add_row(
                item_ref(it.item_id),
                it.kg,
                it.qtype,
                _votes(it, "question_clear"),
                _votes(it, "response_correct") if it.qtype == WH else "",
            )
        console.print(und)
    decided = [it for it in res.items if it.adjudication is not None]
    if decided:
        adj = LiteralTable(
            title=f"Adjudicated ({len(decided)}): the decision overrides the majority",
            title_justify="left",
        )
        for heading in ("item", "question", "decision", "majority", "by", "reason"):
            adj.add_column(heading, justify="right" if heading == "item" else "left")
        for it in decided:
            d = it.adjudication
            assert d is not None
            for field, value, majority in (
                ("question_clear", d.question_clear, it.clear_majority),
                ("response_correct", d.response_correct, it.correct_majority),
            ):
                if value is not None:
                    adj.add_row(
                        item_ref(it.item_id),
                        DECISION_LABELS[field],
                        value,
                        majority or "none",
                        d.adjudicator,
                        d.reason,
                    )
        console.print(adj)
    if res.flagged:
        fl = LiteralTable(title=f"Flagged ({len(res.flagged)})", title_justify="left")
        for heading in ("item", "annotator", "note"):
            fl.add_column(heading, justify="right" if heading == "item" else "left")
        for item_id, name, note in res.flagged:
            fl.add_row(item_ref(item_id), name, note)
        console.print(fl)
    return 0


def cmd_export(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    output = Path(args.output) if args.output else None
    path = export_pack(conn, args.round, args.annotator, output, force=args.force)
    console.print(
        f"wrote {markup_literal(path)}: send it to {markup_literal(args.annotator)}, "
        "then `kglens annotate import FILE`"
    )
    return 0


def cmd_import(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    s = import_pack(conn, Path(args.file))
    console.print(
        f"{markup_literal(s.path)}: round '{markup_literal(s.round)}', annotator "
        f"{markup_literal(s.annotator)}: {s.sentence()}"
    )
    return 0


def _run(command: Command, *, read_only: bool = False) -> Callable[[argparse.Namespace], int]:
    """The subcommand's function: ``command`` on the workspace (opened read-only for a command
    that only reads it)."""

    def run(args: argparse.Namespace) -> int:
        conn = connect(args.db or default_db_path(), read_only=read_only)
        try:
            return command(args, conn)
        except (AnnotationError, LookupError, ExportError) as exc:
            print_error(exc)
            return 2
        finally:
            conn.close()

    return run


def add_annotate_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add `annotate` and its subcommands to the top-level parser's subcommands."""
    ann = sub.add_parser("annotate", help="human evaluation: rounds, progress, report, packs")
    ann_sub = ann.add_subparsers(dest="annotate_command", metavar="ANNOTATE", required=True)

    rnd = ann_sub.add_parser("round", help="annotation rounds")
    rnd_sub = rnd.add_subparsers(dest="round_command", metavar="ROUND_COMMAND", required=True)
    p = rnd_sub.add_parser(
        "create", help="sample a round from runs (stratified per KG and question type, seeded)"
    )
    p.add_argument("--name", required=True, help="the round's name (no control characters)")
    p.add_argument("--runs", help="run ids, e.g. 1,2")
    p.add_argument("--observations", help="filter: observation ids (every one is taken)")
    p.add_argument("--edges", help="filter: edge ids, e.g. flagged edges")
    p.add_argument(
        "--disagreements",
        action="store_true",
        help="take the Wh replies where the LLM judge and the alias matcher disagree",
    )
    p.add_argument(
        "--uncertain",
        action="store_true",
        help="take the Wh replies whose verdict the matcher's rules could not decide",
    )
    p.add_argument(
        "--per-kg",
        type=int,
        help="items per KG, half Yes/No and half Wh (default 100; all with --observations; 0 = all)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--annotators",
        default=",".join(DEFAULT_ANNOTATORS),
        help="names, comma-separated (no control characters)",
    )
    p.add_argument(
        "--majority",
        type=int,
        help="votes needed for the majority label (default: a strict majority of the raters "
        "per item: 3 of 5 as in the paper, 2 of 2 or 3)",
    )
    p.add_argument(
        "--raters-per-item", type=int, help="annotators per item (default: every annotator)"
    )
    p.add_argument(
        "--calibration",
        type=int,
        default=0,
        help="items rated by all when --raters-per-item is set",
    )
    p.set_defaults(func=_run(cmd_round_create))

    p = ann_sub.add_parser("rounds", help="every annotation round")
    p.set_defaults(func=_run(cmd_rounds, read_only=True))
    p = ann_sub.add_parser("progress", help="done of total and time per item, per annotator")
    p.add_argument("round", help="round id or name")
    p.set_defaults(func=_run(cmd_progress, read_only=True))
    p = ann_sub.add_parser(
        "report", help="Table 4, Krippendorff's alpha, Cohen's kappa, disagreements"
    )
    p.add_argument("round", help="round id or name")
    add_table_options(p)
    p.set_defaults(func=_run(cmd_report, read_only=True))
    p = ann_sub.add_parser("export", help="write a JSONL pack for a remote annotator")
    p.add_argument("round", help="round id or name")
    p.add_argument("--annotator", required=True)
    p.add_argument("-o", "--output", help="file (default: ROUND-ANNOTATOR.jsonl)")
    p.add_argument(
        "--force", action="store_true", help="replace an existing file (never a symbolic link)"
    )
    p.set_defaults(func=_run(cmd_export, read_only=True))
    p = ann_sub.add_parser("import", help="read a filled-in pack back (validated, idempotent)")
    p.add_argument("file")
    p.set_defaults(func=_run(cmd_import))
