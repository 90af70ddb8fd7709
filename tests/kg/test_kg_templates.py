"""Default question templates worded from a predicate label (kglens_tui.kg.templates)."""

from __future__ import annotations

import re

import pytest

from kglens_tui.kg.parsed import ParsedKG, default_templates, predicate_for
from kglens_tui.kg.templates import article, base_form, templates_for

SU, OB = "{subject}", "{object}"

# label -> (yes_no[0], yes_no[1], wh, statement)
EXPECTED: dict[str, tuple[str, str, str, str]] = {
    "capital": (
        f"Is {OB} the capital of {SU}?",
        f"Is the capital of {SU} {OB}?",
        f"What is the capital of {SU}?",
        f"The capital of {SU} is {OB}.",
    ),
    "official language": (
        f"Is {OB} the official language of {SU}?",
        f"Is the official language of {SU} {OB}?",
        f"What is the official language of {SU}?",
        f"The official language of {SU} is {OB}.",
    ),
    "head of state": (
        f"Is {OB} the head of state of {SU}?",
        f"Is the head of state of {SU} {OB}?",
        f"What is the head of state of {SU}?",
        f"The head of state of {SU} is {OB}.",
    ),
    "country of citizenship": (
        f"Is {OB} the country of citizenship of {SU}?",
        f"Is the country of citizenship of {SU} {OB}?",
        f"What is the country of citizenship of {SU}?",
        f"The country of citizenship of {SU} is {OB}.",
    ),
    "shares border with": (
        f"Does {SU} share a border with {OB}?",
        f"Is it true that {SU} shares a border with {OB}?",
        f"What does {SU} share a border with?",
        f"{SU} shares a border with {OB}.",
    ),
    "contains": (
        f"Does {SU} contain {OB}?",
        f"Is it true that {SU} contains {OB}?",
        f"What does {SU} contain?",
        f"{SU} contains {OB}.",
    ),
    "follows": (
        f"Does {SU} follow {OB}?",
        f"Is it true that {SU} follows {OB}?",
        f"What does {SU} follow?",
        f"{SU} follows {OB}.",
    ),
    "contains the administrative territorial entity": (
        f"Does {SU} contain the administrative territorial entity {OB}?",
        f"Is it true that {SU} contains the administrative territorial entity {OB}?",
        f"Which administrative territorial entity does {SU} contain?",
        f"{SU} contains the administrative territorial entity {OB}.",
    ),
    "has part(s)": (
        f"Does {SU} have {OB} as a part?",
        f"Is it true that {SU} has {OB} as a part?",
        f"What does {SU} have as a part?",
        f"{SU} has {OB} as a part.",
    ),
    "located in": (
        f"Is {SU} located in {OB}?",
        f"Is it true that {SU} is located in {OB}?",
        f"Which entity is {SU} located in?",
        f"{SU} is located in {OB}.",
    ),
    "located in the administrative territorial entity": (
        f"Is {SU} located in the administrative territorial entity {OB}?",
        f"Is it true that {SU} is located in the administrative territorial entity {OB}?",
        f"Which administrative territorial entity is {SU} located in?",
        f"{SU} is located in the administrative territorial entity {OB}.",
    ),
    "named after": (
        f"Was {SU} named after {OB}?",
        f"Is it true that {SU} was named after {OB}?",
        f"Which entity was {SU} named after?",
        f"{SU} was named after {OB}.",
    ),
    "replaced by": (
        f"Was {SU} replaced by {OB}?",
        f"Is it true that {SU} was replaced by {OB}?",
        f"Which entity was {SU} replaced by?",
        f"{SU} was replaced by {OB}.",
    ),
    "founded by": (
        f"Was {SU} founded by {OB}?",
        f"Is it true that {SU} was founded by {OB}?",
        f"Which entity was {SU} founded by?",
        f"{SU} was founded by {OB}.",
    ),
    "member of": (
        f"Is {SU} a member of {OB}?",
        f"Is it true that {SU} is a member of {OB}?",
        f"What is {SU} a member of?",
        f"{SU} is a member of {OB}.",
    ),
    "part of": (
        f"Is {SU} part of {OB}?",
        f"Is it true that {SU} is part of {OB}?",
        f"What is {SU} part of?",
        f"{SU} is part of {OB}.",
    ),
    "instance of": (
        f"Is {SU} an instance of {OB}?",
        f"Is it true that {SU} is an instance of {OB}?",
        f"What is {SU} an instance of?",
        f"{SU} is an instance of {OB}.",
    ),
    "subclass of": (
        f"Is {SU} a subclass of {OB}?",
        f"Is it true that {SU} is a subclass of {OB}?",
        f"What is {SU} a subclass of?",
        f"{SU} is a subclass of {OB}.",
    ),
    "capital of": (
        f"Is {SU} the capital of {OB}?",
        f"Is it true that {SU} is the capital of {OB}?",
        f"What is {SU} the capital of?",
        f"{SU} is the capital of {OB}.",
    ),
    "member of sports team": (
        f"Is {SU} a member of the sports team {OB}?",
        f"Is it true that {SU} is a member of the sports team {OB}?",
        f"Which sports team is {SU} a member of?",
        f"{SU} is a member of the sports team {OB}.",
    ),
    "part of the series": (
        f"Is {SU} part of the series {OB}?",
        f"Is it true that {SU} is part of the series {OB}?",
        f"Which series is {SU} part of?",
        f"{SU} is part of the series {OB}.",
    ),
    "is a list of": (
        f"Is {SU} a list of {OB}?",
        f"Is it true that {SU} is a list of {OB}?",
        f"What is {SU} a list of?",
        f"{SU} is a list of {OB}.",
    ),
    # braces never add a placeholder; markup stays literal text
    "{x}": (
        f"Is {OB} the (x) of {SU}?",
        f"Is the (x) of {SU} {OB}?",
        f"What is the (x) of {SU}?",
        f"The (x) of {SU} is {OB}.",
    ),
    "located in {object}": (
        f"Is {SU} located in (object) {OB}?",
        f"Is it true that {SU} is located in (object) {OB}?",
        f"Which entity is {SU} located in (object)?",
        f"{SU} is located in (object) {OB}.",
    ),
    "[b]x[/b]": (
        f"Is {OB} the [b]x[/b] of {SU}?",
        f"Is the [b]x[/b] of {SU} {OB}?",
        f"What is the [b]x[/b] of {SU}?",
        f"The [b]x[/b] of {SU} is {OB}.",
    ),
}

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.mark.parametrize("label", list(EXPECTED))
def test_templates_for_a_label(label: str) -> None:
    ask, again, wh, statement = EXPECTED[label]
    assert templates_for(label) == {"yes_no": [ask, again], "wh": wh, "statement": statement}
    assert default_templates(label) == templates_for(label)


@pytest.mark.parametrize("label", [*EXPECTED, "{subject}", "a {{b}} c", "  part   of  ", "P1234"])
def test_every_template_has_exactly_its_placeholders(label: str) -> None:
    t = templates_for(label)
    assert len(t["yes_no"]) == 2
    for text in t["yes_no"]:
        assert sorted(PLACEHOLDER.findall(text)) == [OB, SU] and text.endswith("?")
        assert "{" not in PLACEHOLDER.sub("", text) and "}" not in PLACEHOLDER.sub("", text)
        assert "  " not in text
    assert PLACEHOLDER.findall(t["wh"]) == [SU] and t["wh"].endswith("?")
    assert sorted(PLACEHOLDER.findall(t["statement"])) == [OB, SU]
    assert t["statement"].endswith(".")
    for text in (t["wh"], t["statement"]):
        assert "{" not in PLACEHOLDER.sub("", text) and "}" not in PLACEHOLDER.sub("", text)
        assert "  " not in text


def test_templates_fill_like_the_question_builder() -> None:
    """Templates are filled with str.replace: labels with braces stay literal text."""
    t = templates_for("{object} of {0}")
    text = t["yes_no"][0].replace(SU, "Germany").replace(OB, "Austria")
    assert text == "Is Austria the (object) of (0) of Germany?"


@pytest.mark.parametrize(
    ("verb", "base"),
    [
        ("shares", "share"),
        ("contains", "contain"),
        ("follows", "follow"),
        ("has", "have"),
        ("crosses", "cross"),
        ("carries", "carry"),
        ("uses", "use"),
        ("teaches", "teach"),
    ],
)
def test_base_form(verb: str, base: str) -> None:
    assert base_form(verb) == base


@pytest.mark.parametrize(
    ("word", "art"),
    [("member", "a"), ("instance", "an"), ("owner", "an"), ("university", "a"), ("hour", "an")],
)
def test_article(word: str, art: str) -> None:
    assert article(word) == art


def test_predicate_for_words_templates_from_the_key() -> None:
    parsed = ParsedKG()
    idx = predicate_for(parsed, "shares_border_with")
    row = parsed.predicates[idx]
    assert row.label == "shares border with"
    assert row.templates["wh"] == "What does {subject} share a border with?"
