"""Rules 29: short forms a reader knows a true answer by, from maintained sources and the KG's
own names: a US state by its AP style abbreviation (the ``us`` package: "Pa.", "Miss.") or by
a shortening of each word of its name ("S. Dak."), and a country's highest point by the
mountain the KG's own name says it lies on ("Fako on Mont Cameroun": "Mount Cameroon")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kglens_tui.kg.answer_names import compact_abbreviation, state_abbreviations
from kglens_tui.kg.name_folding import fold_name

_IN = re.compile(r"^(?:(?:it(?:'s|\u2019s| is)\s+)?in\s+)?(?P<core>.+?)[\s!]*$", re.IGNORECASE)
"""A reply that only places something: "Pa.", "In Pa.", "It's in S. Dak."."""

_ABBREVIATED = re.compile(r"^(?=.*\.)(?:[A-Z][a-z]*\.?\s*)+$")
"""Words each a capital and maybe more letters, one at least with a dot ("S. Dak.", "South
Dak.", "W.Va.", "Pa.")."""

_MAX_CHARS = 16


def state_abbreviation(reply: str, true_answers: Sequence[Sequence[str]]) -> bool | None:
    """Where a true answer is a US state and the reply (alone, or after "in") is an abbreviation
    of a state: True if it is the true state's, False if another's, None if neither or it
    cannot tell which. An AP style abbreviation (`state_abbreviations`: "Pa." for
    Pennsylvania) is sure; a word-by-word shortening of a two-word or longer name of one state
    alone ("S. Dak.", "South Dak.", each word the start of the name's word in order; not one
    word, "Kent.") is read as that state, and
    `short_form_uncertain` tells a caller it is no sure reading. A shortening that starts two
    states' names ("N." of North and New) reads as none."""
    found = _IN.match(reply.strip())
    if found is None:
        return None
    core = found["core"]
    if len(core) > _MAX_CHARS or not _ABBREVIATED.fullmatch(core):
        return None
    abbreviations, states = state_abbreviations()
    true_states = {fold_name(n) for group in true_answers for n in group} & states
    if not true_states:
        return None
    named = abbreviations.get(compact_abbreviation(core))
    if named is not None:
        return named in true_states
    words = [w.casefold() for w in re.findall(r"[A-Za-z]+", core)]
    if len(words) < 2:
        return None  # "Kent." is a name with a full stop as often as a shortening
    starts = {
        state
        for state in states
        if len(parts := state.split()) == len(words)
        and all(p.startswith(w) for p, w in zip(parts, words, strict=True))
        and parts != words
    }
    if len(starts) != 1:
        return None
    return bool(starts & true_states)


def short_form_uncertain(reply: str) -> bool:
    """Whether a state abbreviation `state_abbreviation` read is no AP style one (a shortening
    read word by word: the rules take it, a reader may not)."""
    found = _IN.match(reply.strip())
    if found is None:
        return True
    return compact_abbreviation(found["core"]) not in state_abbreviations()[0]


_MOUNT_WORDS = frozenset({"mount", "mont", "monte", "mt", "mt."})
"""The words before a mountain's name that the KG's names use ("Mount Stanley", "Mont Agel",
"Monte Rosa"): English, French, Italian and Spanish for "mount", one word."""

_ON = re.compile(r"^.+?\s+on\s+(?P<massif>\S+\s+.+)$")
"""A KG name of a summit with the mountain it lies on ("Fako on Mont Cameroun")."""

_MASSIF_REPLY = re.compile(
    r"^(?:(?:it(?:'s|\u2019s| is)|that(?:'s|\u2019s| is))\s+)?(?:the\s+)?(?P<name>.+?)[\s.!]*$",
    re.IGNORECASE,
)


def _mount_tail(name: str) -> str | None:
    """A mountain's name after its word for "mount" ("cameroun" of "Mont Cameroun"), folded, or
    None where it has no such word first."""
    words = fold_name(name).split()
    if len(words) < 2 or words[0] not in _MOUNT_WORDS:
        return None
    return " ".join(words[1:])


def massif_named(
    reply: str, true_answers: Sequence[Sequence[str]], subject: Sequence[str] = ()
) -> bool:
    """Whether the reply is only the mountain a true summit lies on, as the KG's own name of the
    summit gives it ("Mount Cameroon." for "Fako on Mont Cameroun", "Monte Rosa" for
    "Dufourspitze on Monte Rosa"): the word for "mount" may be any of `_MOUNT_WORDS`, and the
    rest may be another of the subject's names ("Cameroon" for "Cameroun", both names of the
    country asked about). A summit said to lie on something that is not named as a mountain
    ("Nanlaud on Pohnpei", "... on Canary Islands") gives nothing."""
    found = _MASSIF_REPLY.match(reply.strip())
    if found is None:
        return False
    tail = _mount_tail(found["name"])
    if tail is None:
        return False
    own = {fold_name(s) for s in subject}
    for group in true_answers:
        for name in group:
            on = _ON.match(name)
            massif = _mount_tail(on["massif"]) if on else None
            if massif is not None and (massif == tail or {massif, tail} <= own):
                return True
    return False
