"""Dates of the edges, from the qualifiers of their Wikidata statements.

For an edge (s, P, o) the statements `s p:P ?st . ?st ps:P o` that are not deprecated give the
qualifiers start time (P580), end time (P582) and point in time (P585), read through `pqv:` for
their precision. A date is stored the way the bundled KGs store it: YYYY-MM-DD, YYYY-MM or YYYY
after its precision (day, month, year or coarser). A value that is no such date (e.g.
"-0500-00-00T00:00:00Z", or a year past 9999) is stored as the literal text Wikidata gave. An edge
with several dated statements takes all its dates from the latest one (by its point in time,
else start, else end), so one edge never mixes two statements.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from kglens_tui.kg.wikidata.queries import Binding, claim_id, item_id
from kglens_tui.kg.wikidata.state import Edge

QUALIFIERS = (("start", "P580"), ("end", "P582"), ("point", "P585"))
"""Edge date field (as in the statement query's variables) -> Wikidata qualifier."""

DATES = """SELECT ?subject ?claim ?object ?start ?startPrecision ?end ?endPrecision ?point ?pointPrecision
WHERE {{
  VALUES (?subject ?claim ?statementValue ?object) {{
    {values}
  }}
  ?subject ?claim ?statement .
  ?statement ?statementValue ?object .
  FILTER NOT EXISTS {{ ?statement wikibase:rank wikibase:DeprecatedRank . }}
  OPTIONAL {{
    ?statement pqv:P580 ?startValue .
    ?startValue wikibase:timeValue ?start ; wikibase:timePrecision ?startPrecision .
  }}
  OPTIONAL {{
    ?statement pqv:P582 ?endValue .
    ?endValue wikibase:timeValue ?end ; wikibase:timePrecision ?endPrecision .
  }}
  OPTIONAL {{
    ?statement pqv:P585 ?pointValue .
    ?pointValue wikibase:timeValue ?point ; wikibase:timePrecision ?pointPrecision .
  }}
  FILTER (BOUND(?start) || BOUND(?end) || BOUND(?point))
}}
"""
"""The start, end and point-in-time qualifiers of the statements behind some edges."""

_DATE_TIME = re.compile(r"([+-]?)(\d{1,4})-(\d{2})-(\d{2})(?:T.*)?")
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
DAY, MONTH = 11, 10
"""Wikibase time precisions (9 is a year, lower ones decades, centuries...)."""

Dates = list[str | None]
"""[start, end, point_in_time] as ParsedKG.add_triple takes them."""


def dates_query(edges: Sequence[Edge]) -> str:
    """The statement query for some (subject, predicate, object) edges."""
    values = " ".join(f"(wd:{s} p:{p} ps:{p} wd:{o})" for s, p, o in edges)
    return DATES.format(values=values)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def wikidata_date(value: str, precision: str | None) -> str:
    """A Wikidata time as stored: cut to its precision when it is a valid date, else the text."""
    found = _DATE_TIME.fullmatch(value)
    if found is None:
        return value
    sign, year_text, month_text, day_text = found.groups()
    year, month, day = int(year_text), int(month_text), int(day_text)
    days = 28 if month == 2 and not _leap(year * (-1 if sign == "-" else 1)) else None
    if not 1 <= month <= 12 or not 1 <= day <= (days or _DAYS[month - 1]):
        return value
    try:
        level = int(precision) if precision is not None else DAY
    except ValueError:
        level = DAY
    head = f"{'-' if sign == '-' else ''}{year_text.zfill(4)}"
    if level >= DAY:
        return f"{head}-{month_text}-{day_text}"
    if level == MONTH:
        return f"{head}-{month_text}"
    return head


def _literal(row: Binding, var: str) -> str | None:
    term = row.get(var)
    if term is None or term.get("type") != "literal":
        return None  # unbound, or an unknown value ("somevalue" is a blank node)
    return str(term.get("value", "")).strip() or None


def statement_dates(row: Binding) -> Dates:
    """[start, end, point_in_time] of one statement row."""
    out: Dates = []
    for var, _ in QUALIFIERS:
        value = _literal(row, var)
        precision = _literal(row, f"{var}Precision")
        out.append(None if value is None else wikidata_date(value, precision))
    return out


def _sort_key(value: str | None) -> tuple[int, int, int, int]:
    """Dates sort by time; a literal that is no date sorts before every date."""
    found = re.fullmatch(r"(-?)(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", value or "")
    if found is None:
        return (0, 0, 0, 0)
    year = int(found.group(2)) * (-1 if found.group(1) else 1)
    return (1, year, int(found.group(3) or 0), int(found.group(4) or 0))


def latest(statements: Iterable[Dates]) -> Dates:
    """The dates of the latest statement (by point in time, else start, else end)."""
    return max(statements, key=lambda d: _sort_key(d[2] or d[0] or d[1]))


def edge_dates(bindings: Iterable[Binding], wanted: set[Edge]) -> Iterator[tuple[Edge, Dates]]:
    """(edge, dates) for each dated statement row about one of the `wanted` edges."""
    for row in bindings:
        s, o = item_id(row.get("subject")), item_id(row.get("object"))
        p = claim_id(row.get("claim"))
        if s is None or p is None or o is None or (s, p, o) not in wanted:
            continue
        dates = statement_dates(row)
        if any(dates):
            yield (s, p, o), dates
