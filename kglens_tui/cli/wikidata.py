"""Options, progress display and report of `kglens kg build-wikidata` (run from kglens_tui.cli)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from kglens_tui.core.console import console, err_console
from kglens_tui.core.safetext import markup_literal
from kglens_tui.kg.wikidata.builder import BuildReport, ProgressFn, WalkConfig
from kglens_tui.kg.wikidata.cache import CACHE_ENV, ResponseCache
from kglens_tui.kg.wikidata.client import CONTACT_ENV, DEFAULT_ENDPOINT, SparqlClient, WaitFn
from kglens_tui.kg.wikidata.predicates import DEFAULT_DEAD_PREDICATES


def _ids(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `kglens kg build-wikidata`."""
    defaults = WalkConfig(seeds=())
    p.add_argument("--seeds", required=True, help="central entities, e.g. Q30,Q183")
    p.add_argument("--name", required=True, help="name of the KG in the workspace")
    p.add_argument(
        "--steps", type=int, default=defaults.steps, help="random-walk steps (default: %(default)s)"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=defaults.limit,
        help="rows per walk query, its LIMIT (default: %(default)s)",
    )
    p.add_argument(
        "--frontier-cap",
        type=int,
        default=defaults.frontier_cap,
        help="new entities sampled (seeded) to walk from at the next step (default: %(default)s)",
    )
    p.add_argument(
        "--chunk-size",
        type=int,
        default=defaults.chunk_size,
        help="ids per VALUES list (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=defaults.seed, help="seed of the frontier sample")
    p.add_argument(
        "--min-languages",
        type=int,
        default=defaults.min_languages,
        help="keep entities labelled in at least this many languages (default: %(default)s)",
    )
    p.add_argument(
        "--min-sitelinks",
        type=int,
        default=defaults.min_sitelinks,
        metavar="N",
        help="keep entities with a page on at least N Wikimedia sites, the popularity filter "
        "(default: %(default)s, off)",
    )
    p.add_argument(
        "--keep-unaliased", action="store_true", help="keep entities without an English alias"
    )
    p.add_argument(
        "--dead-predicates",
        default=",".join(DEFAULT_DEAD_PREDICATES),
        help="predicates always dead, comma-separated ('' for none)",
    )
    p.add_argument(
        "--max-object-degree",
        type=float,
        default=defaults.max_object_degree,
        help="dead when a predicate averages more subjects per object (hub objects) (default: %(default)s)",
    )
    p.add_argument(
        "--max-subject-share",
        type=float,
        default=defaults.max_subject_share,
        help="dead when a predicate is on a larger share of the walked subjects (default: %(default)s)",
    )
    p.add_argument(
        "--endpoint", default=DEFAULT_ENDPOINT, help="SPARQL endpoint URL (default: %(default)s)"
    )
    p.add_argument(
        "--contact",
        default=os.environ.get(CONTACT_ENV),
        help=f"e-mail or URL for the User-Agent (default: ${CONTACT_ENV})",
    )
    p.add_argument(
        "--cache",
        metavar="DIR",
        help=f"response cache and walk state (default: ${CACHE_ENV}, else the user cache dir)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=65.0,
        help="seconds to wait for a query (default: %(default)s)",
    )
    p.add_argument("--replace", action="store_true", help="overwrite a KG of the same name")


def walk_config(args: argparse.Namespace) -> WalkConfig:
    """The walk settings from the options; ValueError names a bad one."""
    return WalkConfig(
        seeds=_ids(args.seeds),
        steps=args.steps,
        limit=args.limit,
        frontier_cap=args.frontier_cap,
        chunk_size=args.chunk_size,
        seed=args.seed,
        require_aliases=not args.keep_unaliased,
        min_languages=args.min_languages,
        min_sitelinks=args.min_sitelinks,
        dead_predicates=_ids(args.dead_predicates),
        max_object_degree=args.max_object_degree,
        max_subject_share=args.max_subject_share,
    ).validate()


def cache_dir(args: argparse.Namespace) -> Path:
    """--cache, else $KGLENS_WIKIDATA_CACHE, else a directory per endpoint host."""
    if args.cache:
        return Path(args.cache).expanduser()
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    host = urlsplit(args.endpoint).netloc.replace(":", "_") or "endpoint"
    return Path(platformdirs.user_cache_dir("kglens", appauthor=False)) / "sparql" / host


def sparql_client(args: argparse.Namespace, cache: Path, on_wait: WaitFn) -> SparqlClient:
    return SparqlClient(
        args.endpoint,
        contact=args.contact,
        cache=ResponseCache(cache),
        timeout_s=args.timeout,
        on_wait=on_wait,
    )


def progress_display() -> tuple[Progress, ProgressFn, WaitFn]:
    """A rich progress bar on stderr, its progress callback and a notice for rate-limit waits."""
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} queries"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    task = bar.add_task("starting", total=None)

    def update(stage: str, done: int, total: int) -> None:
        bar.update(task, description=markup_literal(stage), completed=done, total=total)

    def on_wait(seconds: float, reason: str) -> None:
        bar.console.print(
            f"[yellow]{markup_literal(reason)}[/]: waiting {seconds:.1f}s as the server asked"
        )

    return bar, update, on_wait


def print_report(report: BuildReport) -> None:
    """The build summary and dead predicates on stdout, warnings on stderr."""
    console.print(markup_literal(report.summary()))
    for pid, reason in sorted(report.dead.items(), key=lambda item: int(item[0][1:])):
        label = report.predicate_labels.get(pid, "")
        console.print(
            f"  dead: {markup_literal(pid)} {markup_literal(label)} ({markup_literal(reason)})"
        )
    for warning in report.warnings:
        err_console.print(f"[yellow]warning:[/] {markup_literal(warning)}")


def contact_notice(args: argparse.Namespace) -> str | None:
    """A reminder when the real service is used without a contact in the User-Agent."""
    if args.contact or args.endpoint != DEFAULT_ENDPOINT:
        return None
    return f"no contact for the User-Agent: Wikimedia asks for one (--contact or ${CONTACT_ENV})"
