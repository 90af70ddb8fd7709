"""Name tables as the matcher looks them up: a one-word name filed under its plural and singular
forms finds what a look-up of every form of the reply's word found, and a question's true
objects as a union of per-object tables give the matches one table of all their names gives (the
bench's verdicts pin the same: tests/answers/test_verifier_rules.py)."""

from __future__ import annotations

import random

from kglens_tui.answers.mentions import NameTable, TableUnion, tokenize

NAMES = [
    "euro", "euros", "metal", "metals", "alkali metals", "IT", "US", "USA", "bus", "Saint Lucia",
    "St. Kitts", "Canberra", "Sydney", "Sudan", "South Sudan", "+44", "+1", "UTC+05:30", ".is",
    "es", "ess", "Kiev", "Kyiv", "glass", "glasses",
]  # fmt: skip
WORDS = [
    "euro", "euros", "metal", "metals", "alkali", "IT", "it", "its", "US", "us", "USA", "bus",
    "buses", "bu", "Saint", "St.", "Lucia", "Kitts", "Canberra", "Sydney", "South", "Sudan",
    "+44", "+1-268", "UTC+5.5", ".is", "is", "es", "ess", "esses", "Kiev", "Kyiv", "glass",
    "glasse", "glasses", "and", ",", ".", "not",
]  # fmt: skip


def _by_every_form(table_names: list[tuple[str, int]], text: str) -> list[tuple[int, int, int]]:
    """The matches of the earlier look-up: every name filed under its first word only, and a
    reply's word looked up under each of its plural and singular forms."""
    from kglens_tui.answers.mentions import _same, name_tokens

    by_first: dict[str, list] = {}
    for name, owner in table_names:
        tokens, code = name_tokens(name)
        by_first.setdefault(tokens[0], []).append((tokens, code, owner))
    tokens = tokenize(text)
    found = []
    for i, tok in enumerate(tokens):
        keys = [tok.norm]
        if tok.word:
            keys += [tok.norm[: -len(s)] for s in ("s", "es") if tok.norm.endswith(s)]
            keys += [tok.norm + s for s in ("s", "es")]
        for key in dict.fromkeys(keys):
            for name in by_first.get(key, ()):
                end = i + len(name[0])
                if end <= len(tokens) and _same(name, tokens, i):
                    found.append((i, end, name[2]))
    return found


def test_one_look_up_finds_what_every_form_found() -> None:
    rng = random.Random(34)
    names = [(name, owner) for owner, name in enumerate(NAMES)]
    table = NameTable(names)
    for _ in range(3000):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 7)))
        assert sorted(table.matches(tokenize(text))) == sorted(_by_every_form(names, text)), text
    assert {m[2] for m in table.matches(tokenize("Two euros."))} == {0, 1}
    assert table.matches(tokenize("its")) == []  # "IT" is a code: only as written


def test_a_union_of_tables_matches_as_one_table() -> None:
    rng = random.Random(35)
    groups = [NAMES[i : i + 4] for i in range(0, len(NAMES), 4)]
    one = NameTable((name, -1 - i) for i, group in enumerate(groups) for name in group)
    union = TableUnion([NameTable((n, 0) for n in group) for group in groups], lambda i: -1 - i)
    assert union.size == one.size
    assert sorted(union.names()) == sorted(one.names())
    for _ in range(3000):
        tokens = tokenize(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 7))))
        assert union.matches(tokens) == one.matches(tokens)
        assert union.matches(tokens) == one.matches(tokens)  # the kept answer, a fresh list
