from __future__ import annotations

import random
import re
import unicodedata
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import write_jsonl

from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes.config import FactevalConfig
from kglens_tui.modes.facteval.plan import plan_facteval
from kglens_tui.modes.kglens.config import Difficulty
from kglens_tui.modes.kglens.questions import QuestionFactory, _fold, _gives_away, subject_display


@pytest.fixture
def kg(conn, tiny_kg_dir: Path):
    import_kg(conn, tiny_kg_dir, "tiny")
    return load_kg(conn, "tiny")


def factory(kg, difficulty: Difficulty, wh_max: int = 10) -> QuestionFactory:
    return QuestionFactory(
        kg, np.flatnonzero(kg.active_mask), difficulty, seed=0, wh_max_objects=wh_max
    )


def test_easy_asks_yes_no_only_half_true_half_hard_negative(kg) -> None:
    f = factory(kg, Difficulty.EASY)
    questions = [f.make(pos, slot, it) for it in range(40) for slot, pos in enumerate(range(10))]
    assert {q.qtype for q in questions} == {YES_NO}
    yes = sum(q.expected == "yes" for q in questions)
    assert 0.4 < yes / len(questions) < 0.75  # 50/50, more yes where no negative exists
    for q in questions:
        e = kg.edge_position(q.edge_id)
        true = set(kg.true_objects(int(kg.s[e]), int(kg.p[e])).tolist())
        assert (q.candidate in true) == (q.expected == "yes")
        assert kg.labels[q.candidate] in q.text


def test_questions_are_deterministic(kg) -> None:
    a, b = factory(kg, Difficulty.HARD), factory(kg, Difficulty.HARD)
    assert [a.make(p, p, 3) for p in range(10)] == [b.make(p, p, 3) for p in range(10)]


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_a_batch_makes_the_questions_of_one_make_per_slot(kg, difficulty: Difficulty) -> None:
    """The engine makes an iteration's questions in one call: the same questions, drawn from
    the iteration's stream in slot order, as one `make` per slot (what a resumed run or a
    continuous refill asks)."""
    one, batch = factory(kg, difficulty), factory(kg, difficulty)
    positions = np.array([3, 0, 7, 3, 5, 1, 9, 2])
    for it in (1, 2, 9):
        made = batch.make_batch(positions, 4, it)
        assert made == [one.make(int(p), 4 + i, it) for i, p in enumerate(positions)]
        assert [q.slot for q in made] == list(range(4, 12))


def test_subject_aliases_go_into_the_question_but_never_a_code(kg) -> None:
    f = factory(kg, Difficulty.EASY)
    texts = [f.make(pos, 0, it).text for it in range(20) for pos in range(10)]
    assert any("Austria (also known as Österreich)" in t for t in texts)
    assert not any("also known as AT" in t or "also known as TO" in t for t in texts)
    assert any("Tonga" in t for t in texts)


def test_hard_mixes_wh_and_respects_the_out_degree_rule(kg) -> None:
    f = factory(kg, Difficulty.HARD, wh_max=2)
    questions = [f.make(pos, slot, it) for it in range(60) for slot, pos in enumerate(range(10))]
    wh = [q for q in questions if q.qtype == WH]
    assert 0.25 < len(wh) / len(questions) < 0.6
    lang = kg.pred_keys.index("official_language")
    for q in wh:
        e = kg.edge_position(q.edge_id)
        assert kg.out_degree(int(kg.s[e]), int(kg.p[e])) < 2
        assert not (int(kg.s[e]) == kg.node("c:TO") and int(kg.p[e]) == lang)
        assert q.expected_answers and q.expected == ""
        assert "{object}" not in q.text


def test_wh_expected_answers_hold_every_true_object_with_aliases(kg) -> None:
    f = factory(kg, Difficulty.HARD, wh_max=10)
    for it in range(50):
        for pos in range(10):
            q = f.make(pos, 0, it)
            e = kg.edge_position(q.edge_id)
            if (
                q.qtype == WH
                and int(kg.s[e]) == kg.node("c:TO")
                and kg.pred_keys[int(kg.p[e])] == "official_language"
            ):
                assert {a[0] for a in q.expected_answers} == {"Tongan", "English"}
                return
    pytest.fail("no Wh question about Tonga's languages was generated")


@cache
def fold(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c)
    )


def gives_away(alias: str, name: str) -> bool:
    """Whether a shown alias contains an answer: as a whole word, or (names of four or more
    characters) as the start of a word ("Italian" in "Italian Republic", "Repubblica Italiana")."""
    return _answer_pattern(name).search(fold(alias)) is not None


@cache
def _answer_pattern(name: str) -> re.Pattern[str]:
    """Compiled once per name: the walk over a bundled KG checks thousands of names, more than
    `re` keeps compiled."""
    tail = r"(?!\w)" if len(name) < 4 else ""
    return re.compile(r"(?<!\w)" + re.escape(fold(name)) + tail)


@pytest.mark.parametrize("name", ["country", "elements"])
def test_no_shown_alias_gives_an_answer_away(conn, name: str) -> None:
    """Walk the bundled KGs' questions: the alias shown after the subject never contains the
    name or an alias of a true object, and is never a short code such as 'IT' or 'Fe'."""
    ensure_kg(conn, name)
    kg = load_kg(conn, name)
    f = factory(kg, Difficulty.HARD)
    seen_wh = 0
    for pos in range(len(f.positions)):
        for it in range(4):
            q = f.make(pos, 0, it)
            e = kg.edge_position(q.edge_id)
            s, p = int(kg.s[e]), int(kg.p[e])
            seen_wh += q.qtype == WH
            m = re.search(re.escape(kg.labels[s]) + r" \(also known as (.+?)\)(?=\W*$| )", q.text)
            if m is None:
                continue
            alias = m.group(1)
            assert alias in kg.aliases[s], q.text
            assert not re.fullmatch(r"[^\W\d_]{1,3}", alias), q.text
            for t in kg.true_objects(s, p).tolist():
                for answer in (kg.labels[t], *kg.aliases[t]):
                    assert not gives_away(alias, answer), (q.text, answer)
    assert seen_wh > len(f.positions)


def test_subject_display_skips_giveaways_and_codes(conn) -> None:
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    italy, demonym = kg.node("country:ITA"), kg.pred_keys.index("demonym")
    shown = subject_display(kg, italy, kg.true_objects(italy, demonym))
    assert shown.startswith("Italy") and "Italian" not in shown.removeprefix("Italy")
    capital = kg.pred_keys.index("capital")
    assert subject_display(kg, italy, kg.true_objects(italy, capital)) == (
        "Italy (also known as Italian Republic)"
    )


@pytest.fixture
def borders(conn, tmp_path: Path):
    """A chain of three countries (A - B - C) and two languages that share the name Ndebele."""
    d = tmp_path / "borders"
    d.mkdir()
    write_jsonl(
        d / "entities.jsonl",
        [
            {"id": "c:A", "label": "Aland", "type": "country"},
            {"id": "c:B", "label": "Bland", "type": "country"},
            {"id": "c:C", "label": "Cland", "type": "country"},
            {"id": "l:n", "label": "Northern Ndebele", "aliases": ["Ndebele"], "type": "lang"},
            {"id": "l:s", "label": "Southern Ndebele", "aliases": ["Ndebele"], "type": "lang"},
            {"id": "l:x", "label": "Xhosa", "type": "lang"},
        ],
    )
    write_jsonl(
        d / "predicates.jsonl",
        [
            {
                "id": "border",
                "label": "shares border with",
                "templates": {
                    "yes_no": [
                        "Does {subject} border {object}?",
                        "Do {subject} and {object} touch?",
                    ],
                    "wh": "Which countries border {subject}?",
                    "statement": "{subject} shares a land border with {object}.",
                },
            },
            {"id": "language", "label": "official language"},
        ],
    )
    write_jsonl(
        d / "triples.jsonl",
        [
            {"subject": "c:A", "predicate": "border", "object": "c:B"},
            {"subject": "c:B", "predicate": "border", "object": "c:A"},
            {"subject": "c:B", "predicate": "border", "object": "c:C"},
            {"subject": "c:C", "predicate": "border", "object": "c:B"},
            {"subject": "c:A", "predicate": "language", "object": "l:n"},
            {"subject": "c:B", "predicate": "language", "object": "l:s"},
            {"subject": "c:C", "predicate": "language", "object": "l:x"},
        ],
    )
    import_kg(conn, d, "borders")
    return load_kg(conn, "borders")


def test_hard_negative_is_never_the_subject_nor_a_namesake_of_a_true_object(borders) -> None:
    kg = borders
    border, language = kg.pred_keys.index("border"), kg.pred_keys.index("language")
    a, b, c = (kg.node(k) for k in ("c:A", "c:B", "c:C"))
    rng = np.random.default_rng(0)
    # B borders A and C: the only other candidate is B itself, so there is no negative
    assert {kg.hard_negative(b, border, rng, like=a) for _ in range(50)} == {None}
    assert {kg.hard_negative(a, border, rng, like=b) for _ in range(50)} == {c}
    # A's language is Northern Ndebele: Southern Ndebele, also called Ndebele, is no negative
    assert {kg.hard_negative(a, language, rng) for _ in range(50)} == {kg.node("l:x")}


def test_facteval_wrong_answers_are_never_the_subject(conn, borders) -> None:
    kg = borders
    config = FactevalConfig(kg="borders", facts=None, qtypes=["tfq", "mcq"], seed=3)
    plan = plan_facteval(conn, kg, config)
    assert plan
    for q in plan:
        subject = kg.labels[q.s]
        assert subject not in {w[0] for w in q.wrong}, q
        assert subject not in q.choices, q
        if q.qtype == "tfq" and q.truth == "false":
            assert q.question != f"{subject} shares a land border with {subject}.", q


def test_gives_away_matches_the_word_rule_of_a_regular_expression() -> None:
    """The plain-string search finds a name exactly where `(?<!\\w)name` (plus `(?!\\w)` for
    names under four characters) does, in any script."""
    rng = random.Random(7)
    alphabet = "ab _-'.1éΣσ東京ı"
    for _ in range(4000):
        alias = _fold("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))))
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
        tail = r"(?!\w)" if len(name) < 4 else ""
        pattern = re.compile(r"(?<!\w)" + re.escape(_fold(name)) + tail)
        assert _gives_away(alias, name) == (pattern.search(alias) is not None), (alias, name)


def test_a_yes_no_meta_made_by_position_is_the_one_made_by_name(kg) -> None:
    """The Yes/No question's meta is built by position for speed: each field holds what
    `_meta` gives it by name (a reordered `QuestionMeta` would mislabel it silently)."""
    f = factory(kg, Difficulty.EASY)
    questions = [f.make(pos, slot, 3) for slot, pos in enumerate(range(10))]
    for q in questions:
        e = kg.edge_position(q.edge_id)
        s, p, o = int(kg.s[e]), int(kg.p[e]), int(kg.o[e])
        by_name = f._meta(
            3,
            q.slot,
            q.edge_id,
            (s, p, o),
            YES_NO,
            expected=q.expected,
            candidate_label=kg.labels[q.candidate],
            true_labels=f._pair(s, p).labels,
            wrong_labels=(),
        )
        assert q.meta == by_name
