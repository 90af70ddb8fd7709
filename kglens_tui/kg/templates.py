"""Default question templates worded from a predicate's label (for predicates that come without
templates, e.g. Wikidata properties).

A small, deterministic rule set over the label's form; the first rule that matches wins:

===========  =============================================  ======================================
rule         label form (examples)                          Yes/No question
===========  =============================================  ======================================
verb         3rd-person verb from `VERBS` first             Does {subject} share a border with
             ("shares border with", "contains", "follows")  {object}?
have         "has" + noun ("has part(s)")                   Does {subject} have {object} as a
                                                            part?
participle   participle from `EVENT_PARTICIPLES` (was),     Was {subject} named after {object}? /
             `STATE_PARTICIPLES` (is), or "-ed" + a         Is {subject} located in {object}?
             preposition (is): "named after", "located in"
relation     ends in a preposition, or a role noun from     Is {subject} a member of {object}? /
             `ROLE_NOUNS` + "of" + noun: "member of",       Is {subject} part of {object}?
             "instance of", "member of sports team"
noun         anything else: "capital", "head of state"      Is {object} the capital of {subject}?
===========  =============================================  ======================================

A "the ..." phrase after the relation ("located in the administrative territorial entity") goes
before the object and becomes the Wh question's "Which ..." ("Which administrative territorial
entity is {subject} located in?"). A leading "is" is dropped ("is a list of" is a relation). Only
the noun rule asks with {object} first; the others ask "Is it true that <statement>?" second.

Labels are untrusted plain text: never read as markup, and their braces become parentheses so no
label can add a placeholder (templates are filled with str.replace of {subject} and {object}).
"""

from __future__ import annotations

import re
import string
from typing import Any


def _table(words: str) -> frozenset[str]:
    return frozenset(words.split())


VERBS = _table(
    "apply border carry connect contain cross depict feature flow follow have include influence "
    "measure mention own precede produce regulate replace represent share study support use"
)
"""Base forms of verbs a label may start with in the 3rd person ("shares", "contains", "has")."""

EVENT_PARTICIPLES = _table(
    "born built commissioned composed created designed developed directed discovered established "
    "followed founded illustrated influenced inspired invented killed named painted preceded "
    "produced published replaced succeeded written"
)
"""Participles of one-off events: asked with "Was" ("Was {subject} founded by {object}?")."""

STATE_PARTICIPLES = _table(
    "affiliated based contained headquartered known located made operated owned said situated used"
)
"""Participles of lasting states: asked with "Is"; any other "-ed" + preposition is one too."""

PREPOSITIONS = _table(
    "about after against as at between by for from in into near of on over to under with"
)

ROLE_NOUNS = frozenset({"member", "part", "instance", "subclass"})
"""Nouns naming the subject's role: "member of sports team" is "a member of the sports team"."""

NO_ARTICLE = frozenset({"part", "different", "similar", "equivalent", "adjacent", "related"})
"""Relation heads without an article ("Is {subject} part of {object}?")."""

THE_ARTICLE = frozenset({"capital", "opposite"})
"""Relation heads with "the" ("Is {subject} the capital of {object}?"); others take a or an."""

_ARTICLES = frozenset({"a", "an", "the"})
_BARE_NOUNS = {"border": "a border"}
"""Nouns a verb's label leaves without their article ("shares border with")."""
_AN_BEFORE = ("hour", "honest", "honor", "honour", "heir")
_A_BEFORE = ("uni", "use", "usu", "eu", "one", "once")
_PLURAL_MARK = re.compile(r"\(s\)")

Phrasing = tuple[str, str, str]
"""(Yes/No question, Wh question, statement)."""


PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "yes_no": ("subject", "object"),
    "wh": ("subject",),
    "statement": ("subject", "object"),
}
"""The placeholders each kind of template is filled with, every one of them required. Templates
are filled by replacing exactly these (modes/kglens/questions.py: Yes/No and Wh questions;
modes/kontest/plan.py: Yes/No and statement; modes/facteval/plan.py: statement and Wh): any other
brace would reach the model verbatim, and a Yes/No question without its object (or a Wh question
naming it) would not ask about the fact."""

_KIND_NAMES = {"yes_no": "a Yes/No template", "wh": "a Wh template", "statement": "a statement"}


def placeholders_text(kind: str) -> str:
    """The placeholders a template of `kind` needs, as a message names them: "{subject} and
    {object}"."""
    return " and ".join(f"{{{name}}}" for name in PLACEHOLDERS[kind])


def template_problem(text: str, kind: str) -> str | None:
    """Why `text` cannot be a template of `kind` (a key of PLACEHOLDERS), or None if it can: it
    must parse as a format string whose only fields are the kind's placeholders, plain (no
    conversion, format spec, index or attribute), each present; no other brace, escaped or not."""
    allowed = PLACEHOLDERS[kind]
    what = _KIND_NAMES[kind]
    needs = placeholders_text(kind)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        return f"not a valid template ({exc}): braces may only enclose {needs}"
    found: set[str] = set()
    for literal, field, spec, conversion in parts:
        if "{" in literal or "}" in literal:
            return (
                "escaped braces ('{{' or '}}') are not allowed: templates are filled by "
                f"replacing {needs}, not by str.format, so they would reach the model as typed"
            )
        if field is None:
            continue
        if field not in allowed or conversion or spec:
            raw = field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            return f"unknown placeholder '{{{raw}}}': {what} may use only {needs}"
        found.add(field)
    missing = [name for name in allowed if name not in found]
    if missing:
        return f"missing {{{missing[0]}}}: {what} needs {needs}"
    return None


def templates_for(label: str) -> dict[str, Any]:
    """The default templates for a predicate label: keys yes_no (two), wh and statement."""
    words = _words(label)
    if not words:
        return _noun("")
    copula = words[0].lower() == "is" and len(words) > 1
    rest = words[1:] if copula else words
    rules = (_participle, _relation) if copula else (_verb, _participle, _relation)
    for rule in rules:
        found = rule(rest)
        if found is not None:
            ask, wh, statement = found
            return {
                "yes_no": [ask, f"Is it true that {statement[:-1]}?"],
                "wh": wh,
                "statement": statement,
            }
    if copula:  # "is X" with no other form: X is a predicate adjective
        phrase = " ".join(rest)
        statement = f"{{subject}} is {phrase} {{object}}."
        return {
            "yes_no": [
                f"Is {{subject}} {phrase} {{object}}?",
                f"Is it true that {statement[:-1]}?",
            ],
            "wh": f"What is {{subject}} {phrase}?",
            "statement": statement,
        }
    return _noun(" ".join(words))


def article(word: str) -> str:
    """The article ("a" or "an") for a word, by its first letter, with a few exceptions."""
    low = word.lower()
    if low.startswith(_AN_BEFORE):
        return "an"
    if low.startswith(_A_BEFORE):
        return "a"
    return "an" if low[:1] in ("a", "e", "i", "o", "u") else "a"


def base_form(verb: str) -> str:
    """The base form of a 3rd-person singular verb: shares -> share, teaches -> teach,
    carries -> carry, has -> have (other words come back unchanged)."""
    low = verb.lower()
    if low in ("has", "does", "goes"):
        return {"has": "have", "does": "do", "goes": "go"}[low]
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


def _words(label: str) -> list[str]:
    text = label.replace("{", "(").replace("}", ")")
    return _PLURAL_MARK.sub("", text).split()


def _noun(label: str) -> dict[str, Any]:
    if label[:4].lower() == "the ":
        label = label[4:]
    return {
        "yes_no": [
            f"Is {{object}} the {label} of {{subject}}?",
            f"Is the {label} of {{subject}} {{object}}?",
        ],
        "wh": f"What is the {label} of {{subject}}?",
        "statement": f"The {label} of {{subject}} is {{object}}.",
    }


def _split_the(words: list[str]) -> tuple[list[str], list[str]]:
    """(relation, "the ..." phrase naming the object's kind) of a label's words."""
    for i, word in enumerate(words):
        if (
            word.lower() == "the"
            and (i == 0 or words[i - 1].lower() in PREPOSITIONS)
            and i + 1 < len(words)
            and words[-1].lower() not in PREPOSITIONS
        ):
            return words[:i], words[i:]
    if (
        len(words) > 2
        and words[0].lower() in ROLE_NOUNS
        and words[1].lower() == "of"
        and words[2].lower() not in _ARTICLES
        and words[-1].lower() not in PREPOSITIONS
    ):
        return words[:2], ["the", *words[2:]]
    return words, []


def _object(kind: list[str]) -> str:
    return " ".join([*kind, "{object}"])


def _which(kind: list[str], fallback: str) -> str:
    return "Which " + " ".join(kind[1:]) if kind else fallback


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _verb(words: list[str]) -> Phrasing | None:
    base = base_form(words[0])
    if base not in VERBS or base == words[0].lower():
        return None
    rest = words[1:]
    if base == "have" and rest and rest[-1].lower() not in PREPOSITIONS:
        noun = " ".join(rest)
        role = noun if rest[0].lower() in _ARTICLES else f"{article(noun)} {noun}"
        return (
            f"Does {{subject}} have {{object}} as {role}?",
            f"What does {{subject}} have as {role}?",
            f"{{subject}} has {{object}} as {role}.",
        )
    if rest and rest[0].lower() in _BARE_NOUNS:
        rest = [_BARE_NOUNS[rest[0].lower()], *rest[1:]]
    middle, kind = _split_the(rest)
    tail = " ".join(middle)
    return (
        f"Does {{subject}} {_join(base, tail)} {_object(kind)}?",
        f"{_which(kind, 'What')} does {{subject}} {_join(base, tail)}?",
        f"{{subject}} {_join(words[0], tail)} {_object(kind)}.",
    )


def _participle(words: list[str]) -> Phrasing | None:
    first = words[0].lower()
    if first in EVENT_PARTICIPLES:
        aux = "was"
    elif first in STATE_PARTICIPLES or (
        first.endswith("ed") and len(words) > 1 and words[1].lower() in PREPOSITIONS
    ):
        aux = "is"
    else:
        return None
    middle, kind = _split_the(words[1:])
    phrase = _join(words[0], *middle)
    return (
        f"{aux.capitalize()} {{subject}} {phrase} {_object(kind)}?",
        f"{_which(kind, 'Which entity')} {aux} {{subject}} {phrase}?",
        f"{{subject}} {aux} {phrase} {_object(kind)}.",
    )


def _relation(words: list[str]) -> Phrasing | None:
    middle, kind = _split_the(words)
    if len(middle) < 2 or middle[-1].lower() not in PREPOSITIONS:
        return None
    head = middle[0].lower()
    if head in _ARTICLES or head in NO_ARTICLE:
        phrase = " ".join(middle)
    else:
        phrase = _join("the" if head in THE_ARTICLE else article(head), *middle)
    return (
        f"Is {{subject}} {phrase} {_object(kind)}?",
        f"{_which(kind, 'What')} is {{subject}} {phrase}?",
        f"{{subject}} is {phrase} {_object(kind)}.",
    )


STATE_TYPES = frozenset({"country", "territory", "historical_state"})
"""Entity types whose names are names of states (the bundled KGs' types)."""
_THE_WORDS = frozenset(
    {"republic", "kingdom", "union", "federation", "confederation", "emirates", "states",
     "islands", "netherlands", "philippines", "bahamas", "comoros", "maldives", "seychelles",
     "gambia"}
)  # fmt: skip
"""Words that make an English state name take "the": a common noun of a state (Republic,
Kingdom, Union, Federation, States, Emirates), a plural name (the Netherlands, the Philippines,
the Bahamas, the Comoros, the Maldives, the Seychelles, islands), and the Gambia."""


def takes_the(name: str) -> bool:
    """Whether English puts "the" before a state's name ("the United States", "the Netherlands",
    "the Central African Republic"; not "Czechia", "Barbados", "Saint Kitts and Nevis")."""
    words = name.split()
    if not words or words[0].casefold() == "the":
        return False
    return any(w.casefold().strip(".,") in _THE_WORDS for w in words) or words[0] == "DR"


def named(label: str, entity_type: str) -> str:
    """A name as a sentence uses it: a state's name with "the" where English puts it."""
    return f"the {label}" if entity_type in STATE_TYPES and takes_the(label) else label


def fill(template: str, subject: str, obj: str = "") -> str:
    """A template with {subject} and {object} replaced (labels are untrusted text: plain
    replacement), a "the" that opens the sentence capitalised."""
    text = template.replace("{subject}", subject).replace("{object}", obj)
    return "The" + text[3:] if text.startswith("the ") else text
