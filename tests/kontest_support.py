"""A hand-built graph for the mode tests (not a test module): Kinawley and Dromore in Ulster,
Ulster in Ireland, three capitals; and the scripted replies that plant inconsistencies of every
KONTEST type in it."""

from __future__ import annotations

from pathlib import Path

from conftest import write_jsonl

LOCATED = "located in the administrative territorial entity"


def hand_kg(root: Path) -> Path:
    """Kinawley and Dromore lie in Ulster, Ulster in Ireland; three capitals."""
    d = root / "hand"
    d.mkdir()
    places = [
        ("kinawley", "Kinawley", "village"),
        ("dromore", "Dromore", "village"),
        ("ulster", "Ulster", "province"),
        ("ireland", "Ireland", "country"),
        ("france", "France", "country"),
        ("germany", "Germany", "country"),
        ("dublin", "Dublin", "city"),
        ("paris", "Paris", "city"),
        ("berlin", "Berlin", "city"),
        ("lyon", "Lyon", "city"),
    ]
    write_jsonl(d / "entities.jsonl", [{"id": k, "label": lab, "type": t} for k, lab, t in places])
    write_jsonl(
        d / "predicates.jsonl",
        [
            {
                "id": "located_in",
                "label": LOCATED,
                "templates": {
                    "yes_no": [
                        "Is {subject} located in {object}?",
                        "Does {subject} lie within {object}?",
                    ],
                    "wh": "Where is {subject} located?",
                    "statement": "{subject} is located in {object}.",
                },
            },
            {
                "id": "capital",
                "label": "capital",
                "templates": {
                    "yes_no": [
                        "Is {object} the capital of {subject}?",
                        "Is the capital of {subject} {object}?",
                    ],
                    "wh": "What is the capital of {subject}?",
                    "statement": "The capital of {subject} is {object}.",
                },
            },
        ],
    )
    write_jsonl(
        d / "triples.jsonl",
        [
            {"subject": "kinawley", "predicate": "located_in", "object": "ulster"},
            {"subject": "dromore", "predicate": "located_in", "object": "ulster"},
            {"subject": "ulster", "predicate": "located_in", "object": "ireland"},
            {"subject": "france", "predicate": "capital", "object": "paris"},
            {"subject": "germany", "predicate": "capital", "object": "berlin"},
            {"subject": "ireland", "predicate": "capital", "object": "dublin"},
        ],
    )
    return d


PLANTED = {
    "replies": {
        "Is the capital of France Paris?": "No.",
        "Is Kinawley located in Ireland?": "No.",
        "Does Kinawley lie within Ireland?": "No, it does not.",
        "Is Dromore located in Ireland?": "No.",
        "Does Dromore lie within Ireland?": "No.",
    },
    "after": {
        ("Is Paris the capital of France?", "Is the capital of France Paris?"): "Yes.",
        ("Is the capital of France Paris?", "Is Paris the capital of France?"): "No.",
        ("Is Berlin the capital of Germany?", "Is the capital of Germany Berlin?"): "No.",
        ("Is the capital of Ireland Dublin?", "Is Dublin the capital of Ireland?"): "I think so.",
    },
}
