"""Classify model replies as correct / incorrect / refused / unparseable (KGLens QAV, sec. 2.3).

Yes/No replies are verified by their first word ("No, I don't know." is a refusal; "I think
yes" a hedged Yes). Wh replies by whole entity names (`mentions`): a true object counts when
named as itself, not inside a longer name of another entity of its type, not negated, and no
other entity of its type but the subject is named beside it (not negated); signed
numbers and UTC offsets by their sign; codes only as written; a fuzzy fallback for misspellings.
Answers given with doubt keep their verdict and carry a hedged flag. All functions are pure.
The readings `check_wh` applies live beside it: `refusals`, `corrections`, `passing`,
`candidates`, `people`, `spelling`, `places` and `reply_forms`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from kglens_tui.answers.basis import Basis
from kglens_tui.answers.candidates import (
    another_number,
    answered_by_another,
    asks_for_one_thing,
    asks_in_present,
    bare_name,
    defined_by_another,
    defining_sentences,
    name_clause,
    offers_others,
    other_than_subject,
    relation_words,
    unknown_item,
)
from kglens_tui.answers.certainty import (
    rival_after_a_break,
    unread_script,
    unread_sentence,
)
from kglens_tui.answers.cognates import written_in_another_language
from kglens_tui.answers.corrections import (
    ENGLISH_FUNCTION_WORDS,
    claimed_tail,
    correction,
    disowned,
    given_up,
    left_undecided,
    unread_tail,
    withdrawn_and_declined,
)
from kglens_tui.answers.former_names import named_with_former
from kglens_tui.answers.list_readings import (
    another_language_listed,
    conjunctions_read,
    language_listed_by_head,
    lone_last_item,
    offsets_read_whole,
    retractions_in_latin,
)
from kglens_tui.answers.mentions import (
    Mention,
    NameTable,
    Token,
    clean_quotes,
    has_hedge,
    mentions,
    tokenize,
)
from kglens_tui.answers.numbers import (
    another_territorys_area_code,
    own_area_codes,
    with_area_code,
)
from kglens_tui.answers.other_names import (
    another_currencys_name,
    range_beyond_answers,
    subject_by_another_name,
)
from kglens_tui.answers.passing import (
    COMPASS,
    INNER_PARTICLES,
    PASSING,
    answered_aside,
    called_former,
    rival_verdict,
    shared_with_subject,
)
from kglens_tui.answers.people import (
    given_name_alone,
    isolated,
    middle_names,
    surnames,
    two_word_names,
)
from kglens_tui.answers.places import (
    about_another_country,
    addressed_elsewhere,
    another_countrys_code,
    another_currencys_sign,
    codes_of_other_currencies,
    formal_name_core,
    named_as_a_country,
    national_sign,
    qualified_units,
    sign_fold,
    with_cities,
    with_territory_signs,
    with_zone_abbreviations,
    without_own_countries,
)
from kglens_tui.answers.refusals import (
    BLANK_MARK,
    DONT_KNOW,
    SHRUG,
    TRAILING_OFF,
    an_unread_sentence,
    asks_a_guess,
    declines,
    declines_to_choose,
    guesses,
    is_refusal,
    knows_not,
    offers_a_name,
    opens_not_knowing,
    unknown_as_claim,
    without_not_knowing,
    without_regret,
)
from kglens_tui.answers.reply_forms import (
    ALPHABET_WORD,
    BARE_CODE,
    FLAG,
    NICKNAME_OF,
    STRUCK,
    TAG_FLAG,
    capitalised_only,
    domain_under,
    first_part_reading,
    flag_code,
    readings,
    spoken_domain,
    tag_flag_name,
    transliterated,
    valence_reading,
)
from kglens_tui.answers.roles import no_answer_role
from kglens_tui.answers.short_forms import massif_named, short_form_uncertain, state_abbreviation
from kglens_tui.answers.spelling import (
    fuzzy_answer,
    inflected_answer,
    names_a_head,
    split_name,
)
from kglens_tui.answers.subject_clause import renamed_since, subject_number_elsewhere
from kglens_tui.answers.unknown import (
    another_era,
    derived_from_subject,
    part_of_answer,
    qualified_after,
    qualified_place,
    roles_only,
    told_after,
    type_words,
    unknown_answer,
    unknown_opening,
    unknown_sign,
)
from kglens_tui.answers.words import (
    ARTICLES,
    NOT_NAMES,
    SENTENCES,
    as_tuples,
    name_words,
    normalize,
    question_tokens,
    subject_mentions,
    subject_plurals,
    truth_table,
)
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import AnswerNames

_YES_WORDS = frozenset({"yes", "yeah", "yep", "yup", "true", "correct", "affirmative"})


_NO_WORDS = frozenset({"no", "nope", "false", "incorrect", "negative"})


_LEAD_JUNK = re.compile(r"^[\s\"'`*_#>~\-–—•·:(\[{“”‘’«»]+")


_PREFIX = re.compile(
    r"^(?:final\s+answer|short\s+answer|answer|response|assistant|reply|a)\s*[:\-–—]\s*",
    re.IGNORECASE,
)


_ANSWER_IS = re.compile(
    r"^(?:the\s+)?(?:short\s+|final\s+)?answer\s+is\s*:?\s*[\"'*_“‘]*(yes|no)\b", re.IGNORECASE
)


_FIRST_WORD = re.compile(r"^([A-Za-z]+)")


_NO_INFO = re.compile(
    r"^no\s+(?:\w+\s+)?(?:information|data|records?|details|knowledge|idea)\b", re.IGNORECASE
)


_KNOWS_NOT = re.compile(
    r"[\s,.!:;\-–—]*(?:i\s+(?:do\s+not|don't|dont)\s+know\b|i\s+(?:have\s+)?no\s+idea\b|"
    r"i(?:'m|\s+am)\s+not\s+(?:sure|certain)\b|i\s+(?:cannot|can't|can\s+not)\s+(?:say|tell)\b|"
    r"(?:i'm\s+|i\s+am\s+)?sorry\b)",
    re.IGNORECASE,
)
"""What after a first "No," says the reply does not know."""


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")


_HEDGED_YES_NO = re.compile(
    r"^(?:i(?:'m|\s+am)\s+not\s+(?:sure|certain)[\s,.;]*(?:but\s+)?)?"
    r"(?:i\s+(?:think|believe|guess)|probably|possibly|perhaps|maybe|most\s+likely)"
    r"(?:\s+(?:that|so))?[\s,:]*(?:the\s+answer\s+is\s*:?\s*)?[\"'*]*(yes|no|not)\b",
    re.IGNORECASE,
)
"""A hedge, then the answer: "I think yes", "Probably not", "I'm not sure, but I think no"."""


_NEGATION = re.compile(
    r"\b(?:not|no|never|none|neither|nor|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|"
    r"rather|instead|incorrect|false|but|however)\b|n't\b",
    re.IGNORECASE,
)


def _strip_lead(text: str) -> str:
    """Drop leading whitespace, markdown, quotes and 'Answer:'-style prefixes."""
    current = text
    while True:
        stripped = _PREFIX.sub("", _LEAD_JUNK.sub("", current))
        if stripped == current:
            return current
        current = stripped


def _yes_no_of(body: str) -> tuple[str | None, int]:
    """(yes / no / None, where the answer word ends) of a reply's opening."""
    match = _ANSWER_IS.match(body)
    if match:
        return match.group(1).lower(), len(body)
    match = _FIRST_WORD.match(body)
    if not match or _NO_INFO.match(body):
        return None, 0
    word = match.group(1).lower()
    if word in _YES_WORDS:
        return "yes", match.end()
    if word in _NO_WORDS:
        return "no", match.end()
    return None, 0


def _read_yes_no(text: str) -> tuple[str | None, bool]:
    """(yes / no / None, hedged) of a reply: its first word, unless what follows says it does not
    know ("No, I don't know." answers nothing); or the word after a hedge ("I think yes")."""
    body = _strip_lead(clean_quotes(text))
    answer, end = _yes_no_of(body)
    if answer is not None:
        if _KNOWS_NOT.match(body, end):
            return None, False
        stop = _SENTENCE_END.search(body, end)
        return answer, has_hedge(body, stop.start() if stop else None)
    hedge = _HEDGED_YES_NO.match(body)
    if hedge:
        return ("yes" if hedge.group(1).lower() == "yes" else "no"), True
    return None, False


def first_word_answer(text: str) -> str | None:
    """The yes/no answer a reply opens with: "yes", "no" or None (see `check_yes_no`)."""
    return _read_yes_no(text)[0]


@lru_cache(maxsize=1 << 14)
def check_yes_no(reply: str, expected: str) -> Checked:
    """Verify a Yes/No reply by its first word against ``expected`` ("yes" or "no"); a hedged
    answer ("I think yes", "Probably not") counts with the hedged flag. Kept (at most 16,384):
    a model's Yes/No replies repeat ("Yes.", "No, it is not.")."""
    want = expected.strip().lower()
    if want not in ("yes", "no"):
        raise ValueError(f"expected must be 'yes' or 'no', not {expected!r}")
    if not reply or not reply.strip():
        return Checked(Verdict.UNPARSEABLE)
    answer, hedged = _read_yes_no(reply)
    if answer is not None:
        return Checked(Verdict.CORRECT if answer == want else Verdict.INCORRECT, hedged)
    if is_refusal(reply):
        return Checked(Verdict.REFUSED)
    return Checked(Verdict.UNPARSEABLE)


def verify_yes_no(reply: str, expected: str) -> Verdict:
    """The verdict of `check_yes_no`."""
    return check_yes_no(reply, expected).verdict


def mentions_any(reply: str, aliases: Iterable[str], *, fuzzy: bool = True) -> bool:
    """Whether the text names one of the aliases as a whole name (negated or not; see
    `mentions`), or with ``fuzzy`` a near spelling of one."""
    tokens = tokenize(reply)
    if not tokens:
        return False
    table = truth_table((tuple(aliases),))
    found = mentions(tokens, table)
    return bool(found) or (fuzzy and fuzzy_answer(tokens, table, None, found, deny=False))


class _Reading(NamedTuple):
    verdict: Verdict
    hedged: bool = False
    uncertain: bool = False


class Checked(_Reading):
    """A verdict, whether the reply hedged ("I think it is Canberra", "probably Yes"), and
    whether the rules could not decide it (the verdict is then their best reading); rules 34:
    ``basis``, which part of the reading gave it (`Basis`), an attribute outside the tuple, so
    two readings that agree are equal and the tuple is what it was."""

    basis: Basis

    def __new__(
        cls,
        verdict: Verdict,
        hedged: bool = False,
        uncertain: bool = False,
        basis: Basis = Basis.NONE,
    ) -> Checked:
        self = super().__new__(cls, verdict, hedged, uncertain)
        self.basis = basis
        return self


def _names_rival(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether the reply names a rival as an answer (`rival_verdict`)."""
    return rival_verdict(tokens, found, subject)[0]


def names_rival(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None,
    subject: Sequence[str] = (),
) -> bool:
    """Whether a reply names, not negated, a rival: an entity of the answer's type (``rivals``,
    every name of that type, as `TypeNames.table` gives) that is neither a true object nor the
    subject (``subject``: its names). The rule by which `check_wh` finds "Arabic and English"
    incorrect for Kuwait's official language, for any mode that verifies open answers."""
    if rivals is None:
        return False
    tokens = tokenize(reply)
    if not tokens:
        return False
    found = mentions(tokens, truth_table(as_tuples(true_answers)), rivals)
    return _names_rival(tokens, found, tuple(subject))


def _mentions_of(
    tokens: Sequence[Token], true_answers: Sequence[Sequence[str]], rivals: NameTable | None
) -> list[Mention]:
    truth = truth_table(as_tuples(true_answers))
    return list(mentions(tokens, truth) if rivals is None else mentions(tokens, truth, rivals))


def named_answers(
    reply: str, true_answers: Sequence[Sequence[str]], rivals: NameTable | None = None
) -> set[int]:
    """Indexes of the true answers a reply names the way `check_wh` counts a true object: one of
    its names, not negated and not inside a longer name of another true answer or of a rival
    ("Northern Sotho" does not name "Sotho"), or a near spelling of one that no negation denies
    and no rival name resembles as much."""
    tokens = tokenize(reply)
    if not tokens:
        return set()
    groups = as_tuples(true_answers)
    truth = truth_table(groups)
    found = mentions(tokens, truth) if rivals is None else mentions(tokens, truth, rivals)
    named = {-1 - m.owner for m in found if m.owner < 0 and not m.negated}
    for i, group in enumerate(groups):
        if i not in named and fuzzy_answer(tokens, truth_table((group,)), rivals, found):
            named.add(i)
    return named


def check_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    *,
    question: str = "",
    answer_only: Sequence[AnswerNames] = (),
) -> Checked:
    """`_read_wh`, then rules 33: a sure verdict of a reply the reading did not read is
    uncertain (`kglens_tui.answers.certainty`), its verdict kept; rules 34: so is a sure
    "incorrect" for a rival named only after a break following the true answer
    (`rival_after_a_break`); rules 36: so is a sure "no name found" for a name given with its
    former name (`named_with_former`). ``basis`` says which part of the reading gave the verdict."""
    got = _read_wh(reply, true_answers, rivals, subject, question=question, answer_only=answer_only)
    if got.uncertain or got.verdict is not Verdict.INCORRECT:
        return got
    groups = as_tuples(true_answers)
    extra = _answer_only_names(groups, tuple(answer_only), _shown(tuple(subject), question))
    tables = (truth_table(extra[0] or groups), extra[1], rivals)

    def named(tokens: Sequence[Token]) -> list[Mention]:
        return list(mentions(tokens, *[t for t in tables if t is not None]))

    if got.basis is Basis.RIVAL:
        tokens = tokenize(reply)
        if rival_after_a_break(reply, tokens, named(tokens), subject):
            return _unsure(got)  # rules 34
        return got

    if unread_script(reply, named):
        return _unsure(got)  # rules 33: "富士山（3,776 m）"
    if got.basis is Basis.NO_NAME and named_with_former(reply):
        return _unsure(got)  # rules 36: "Uhuru Peak, formerly Kaiser-Wilhelm-Spitze."
    from kglens_tui.kg.answer_names import english_name_words

    asked = frozenset(t.norm for t in tokenize(question)) if question else frozenset()
    asked |= {t.norm for name in subject for t in tokenize(name)}
    if unread_sentence(
        reply,
        named,
        ENGLISH_FUNCTION_WORDS,
        english_name_words(),
        asked,
    ):  # rules 33: "Je ne dispose pas de données à jour pour répondre avec certitude."
        return _unsure(got)
    return got


def _unsure(got: Checked) -> Checked:
    """``got``, its verdict, hedge and basis kept, marked uncertain (rules 33 and 34)."""
    return Checked(got.verdict, got.hedged, uncertain=True, basis=got.basis)


def _read_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    *,
    question: str = "",
    answer_only: Sequence[AnswerNames] = (),
) -> Checked:
    """`_check_wh`; a reply with words in an alphabet whose Latin spelling is its
    transliteration (Cyrillic, Greek) that names no true answer as written is also read in
    anyascii's Latin letters ("гора Эльбрус" is "gora El'brus"), and correct if that names one.
    A reply that is only the letters of a true top-level domain ("DE" for ".de") is correct,
    uncertain (`BARE_CODE`)."""
    if "~~" in reply:  # rules 14: what a reply strikes out it takes back ("~~Lima~~ Cusco")
        reply = STRUCK.sub(" ", reply)
    if FLAG.search(reply):  # rules 16: a flag is its country's ISO code ("🇫🇷" is "FR")
        reply = FLAG.sub(flag_code, reply)
    if "\U0001f3f4" in reply:  # rules 31: a subdivision's tag flag is its name ("Scotland")
        reply = TAG_FLAG.sub(tag_flag_name, reply)
    reply = valence_reading(reply, true_answers) or reply  # rules 24: "Tetravalent." is "+4."
    reply = retractions_in_latin(reply) or reply  # rules 28: "извините" is "izvinite"
    reply = offsets_read_whole(reply, true_answers) or reply  # rules 28: "UTC+7, +8" is "UTC+8"
    reply = spoken_domain(reply, true_answers) or reply  # rules 28: "dot-de" is ".de"

    def check(text: str, answers: Sequence[Sequence[str]] = true_answers) -> Checked:
        return _check_wh(text, answers, rivals, subject, question=question, answer_only=answer_only)

    got = check(reply)
    tail = unread_tail(reply, lambda tokens: _mentions_of(tokens, true_answers, rivals))
    if tail and not _near_subject(tail, subject):
        again = check(tail)  # rules 30: "Euro — ei, vabandust, kroon." ends on the kroon
        if again.verdict is not got.verdict and again.verdict in (
            Verdict.CORRECT,
            Verdict.INCORRECT,
        ):
            return Checked(
                again.verdict, got.hedged or again.hedged, uncertain=True, basis=Basis.TAIL
            )
    claimed = claimed_tail(reply, lambda tokens: _mentions_of(tokens, true_answers, rivals))
    if claimed and got.verdict is Verdict.CORRECT and not _near_subject(claimed, subject):
        again = check(claimed)  # rules 32: "X — scratch the name, I believe it is still Y."
        if again.verdict is Verdict.INCORRECT:
            return Checked(
                again.verdict, got.hedged or again.hedged, uncertain=True, basis=Basis.CLAIMED_TAIL
            )
    if got.verdict is Verdict.CORRECT:
        if another_currencys_sign(reply, true_answers):  # rules 25: "RD$" asked of Haiti
            return Checked(Verdict.INCORRECT, got.hedged, basis=Basis.CURRENCY_SIGN)
        if another_currencys_name(
            reply, true_answers, answer_only
        ):  # rules 31: "El peso argentino."
            return Checked(Verdict.INCORRECT, got.hedged, basis=Basis.CURRENCY_NAME)
        if subject_by_another_name(reply, true_answers, subject, answer_only):
            return Checked(
                Verdict.INCORRECT, got.hedged, basis=Basis.SUBJECT_RENAMED
            )  # rules 31: "East Pakistan."
        if range_beyond_answers(reply, true_answers):  # rules 31: "Anything from −3 to +5."
            return Checked(Verdict.INCORRECT, got.hedged, uncertain=True, basis=Basis.RANGE)
        if another_countrys_code(reply, true_answers, answer_only):  # rules 26: "CN, JP, KP."
            return Checked(Verdict.INCORRECT, got.hedged, basis=Basis.COUNTRY_CODE)
        if another_territorys_area_code(reply, subject):  # rules 28: "+1-242" asked of Jamaica
            return Checked(Verdict.INCORRECT, got.hedged, basis=Basis.AREA_CODE)
        if another_language_listed(reply, true_answers):  # rules 28: "Englisch und Spanisch."
            return Checked(Verdict.INCORRECT, got.hedged, basis=Basis.LANGUAGE_LISTED)
        if language_listed_by_head(reply, true_answers):  # rules 31: "Hindustani and English."
            return Checked(Verdict.INCORRECT, got.hedged, uncertain=True, basis=Basis.LANGUAGE_HEAD)
        if lone_last_item(reply, true_answers):  # rules 28: "The US dollar and bitcoin."
            return Checked(Verdict.INCORRECT, got.hedged, uncertain=True, basis=Basis.LONE_LAST)
        joined = conjunctions_read(reply, true_answers)
        if joined is not None:  # rules 28: "Quito o Cuenca."; an unknown item: uncertain
            again = check(joined)
            if again.verdict is not Verdict.CORRECT:
                if again.uncertain:
                    return Checked(
                        Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.CONJUNCTION
                    )
                return Checked(again.verdict, got.hedged or again.hedged, basis=Basis.CONJUNCTION)
        return got
    bare = BARE_CODE.fullmatch(reply)
    if bare and any(n.casefold() == "." + bare[1].casefold() for g in true_answers for n in g):
        return Checked(
            Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.BARE_CODE
        )  # "DE" for ".de"
    nickname = NICKNAME_OF.fullmatch(reply)
    if nickname is not None and capitalised_only(nickname["whose"]):
        again = check(nickname["whose"])
        if again.verdict is Verdict.CORRECT:  # rules 25: "Fatshi, as Tshisekedi is nicknamed."
            return Checked(
                Verdict.CORRECT, got.hedged or again.hedged, again.uncertain, basis=Basis.NICKNAME
            )
    under = domain_under(reply, true_answers)
    if under is not None:  # rules 25: ".co.uk" for ".uk"
        return Checked(Verdict.CORRECT, got.hedged, uncertain=under, basis=Basis.DOMAIN_UNDER)
    if got.verdict is Verdict.INCORRECT:
        if massif_named(reply, true_answers, subject):  # rules 29: "Mount Cameroon." for Fako
            return Checked(Verdict.CORRECT, got.hedged, uncertain=got.uncertain, basis=Basis.MASSIF)
        state = state_abbreviation(reply, true_answers)
        if state is not None:  # rules 29: "Pa.", "S. Dak." (uncertain), another's "Miss."
            verdict = Verdict.CORRECT if state else Verdict.INCORRECT
            return Checked(
                verdict,
                got.hedged,
                uncertain=short_form_uncertain(reply),
                basis=Basis.STATE_ABBREVIATION,
            )
    for reading in readings(reply, true_answers):
        if reading is not None:
            again = check(reading)
            if again.verdict is Verdict.CORRECT:
                return Checked(
                    Verdict.CORRECT,
                    got.hedged or again.hedged,
                    again.uncertain,
                    basis=Basis.READING,
                )
    paired = first_part_reading(reply, true_answers, rivals)
    if paired is not None:
        again = check(paired)
        if again.verdict is Verdict.CORRECT:  # rules 24: "Bosnia" for Bosnia and Herzegovina
            return Checked(
                Verdict.CORRECT, got.hedged or again.hedged, again.uncertain, basis=Basis.FIRST_PART
            )
    if formal_name_core(reply, true_answers, answer_only, subject):  # rules 26: "Tanganyika."
        return Checked(Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.FORMAL_CORE)
    if given_name_alone(reply, true_answers, answer_only, rivals):
        return Checked(Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.GIVEN_NAME)
    cities = with_cities(true_answers, question)
    if cities is not None:
        again = check(reply, cities)
        if again.verdict is Verdict.CORRECT:  # rules 20: "In Paris." for France
            return Checked(
                Verdict.CORRECT, got.hedged or again.hedged, uncertain=True, basis=Basis.CITIES
            )
    if names_a_head(reply, true_answers, rivals, subject):  # rules 21: "Washington."
        return Checked(Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.HEAD)
    signed = with_territory_signs(reply, true_answers, subject)
    if signed is not None:
        again = check(reply, signed)
        if again.verdict is not Verdict.CORRECT and sign_fold(reply) != reply:
            again = check(sign_fold(reply), signed)  # rules 36: "₨" is CLDR's "Rs"
        if again.verdict is Verdict.CORRECT:  # rules 20: "$" asked of Mexico
            return Checked(
                Verdict.CORRECT,
                got.hedged or again.hedged,
                uncertain=True,
                basis=Basis.TERRITORY_SIGN,
            )
    zoned = with_zone_abbreviations(reply, true_answers, subject)
    if zoned is not None:
        again = check(reply, zoned)
        if again.verdict is Verdict.CORRECT:  # rules 27: "NPT." asked of Nepal, "IST" of India
            return Checked(
                Verdict.CORRECT, got.hedged or again.hedged, again.uncertain, basis=Basis.ZONE
            )
    national = national_sign(reply, true_answers, subject)
    if national is not None:  # rules 24: "Mex$" asked of Mexico
        return Checked(Verdict.CORRECT, got.hedged, uncertain=national, basis=Basis.NATIONAL_SIGN)
    if got.uncertain and written_in_another_language(reply, true_answers):
        return Checked(
            Verdict.CORRECT, got.hedged, uncertain=True, basis=Basis.ANOTHER_LANGUAGE
        )  # rules 27: "Rhodésie du Nord"
    if not ALPHABET_WORD.search(reply):
        return got
    again = check(transliterated(reply))
    if again.verdict is Verdict.CORRECT:
        return Checked(again.verdict, again.hedged, again.uncertain, Basis.TRANSLITERATED)
    return got


_NEAR_SUBJECT = 0.8
"""How like a name of the subject a reply's last candidate may not be (difflib's ratio)."""


def _near_subject(tail: str, subject: Sequence[str]) -> bool:
    """Rules 32: whether a reply's last candidate is the subject's name, inflected maybe
    ("Canberra, czyli stolica Australii."): the question's own words, no answer."""
    words = " ".join(re.findall(r"\w+", tail)).casefold()
    return any(
        SequenceMatcher(None, words, name.casefold()).ratio() >= _NEAR_SUBJECT for name in subject
    )


_HEADING = re.compile(
    r"^\s*[*_#>]*\s*(?:tl;?\s?dr|quick\s+answer|short\s+answer|final\s+answer|answer|in\s+short"
    r"|summary|bottom\s+line)\s*[*_]*\s*[:\u2014\u2013]\s*[*_]*\s*(?=\S)",
    re.IGNORECASE,
)
"""Rules 19: a heading before the answer ("TL;DR: Canberra.", "**Quick answer —** ..."): no part
of what the reply says."""


def _check_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    *,
    question: str = "",
    answer_only: Sequence[AnswerNames] = (),
) -> Checked:
    """Verify a Wh reply as a careful reader does: correct when it gives a true object (any of
    its names) as its answer, as a whole entity, not negated, and no rival. ``rivals``: names of
    every entity of the object's type; a longer rival name that contains a true name ("South
    Sudan" for "Sudan") is not the answer, and a reply that also names as an answer, not negated,
    a rival that is no true object ("Arabic and English", "Left or right") is incorrect (one
    named in passing is not: `rival_verdict`). ``subject``: the names of the entity asked
    about, never a rival ("Zambia gained independence from the United Kingdom").

    ``question``: its own words never count as an answer (`_echo`: "The capital of Djibouti." is
    no answer). ``answer_only``: per true object, names a reply may use that the KG lacks
    (`kglens_tui.kg.answer_names`): matched exactly, never by spelling. A correction ("Abuja...
    sorry, I mean Lagos", "often assumed to be X, but it is Y") is judged by what the reply ends
    on (`correction`).

    Without a true mention the reply is incorrect if it names a rival or offers a guess, else
    refused if it declines to answer (also without the usual words when it names no candidate:
    "That information is not available to me."), else incorrect. Hedged: it expresses doubt or
    declines. Uncertain: the rules cannot decide (a rival in a sentence of its own beside the
    answer; the answer only by a name it shares with the subject; rules 22: an answer the rules
    cannot read, `kglens_tui.answers.unknown`).
    """
    if not reply or not reply.strip():
        return Checked(Verdict.UNPARSEABLE, basis=Basis.EMPTY)
    reply = _HEADING.sub("", reply, count=1) or reply
    tokens = tokenize(reply)
    if not tokens:  # a shrug alone ("🤷") declines; rules 20: so does a lone dash
        declined = SHRUG.search(reply) or BLANK_MARK.fullmatch(reply)
        trailing = TRAILING_OFF.fullmatch(reply) is not None  # rules 25: "..."
        verdict = Verdict.REFUSED if declined else Verdict.UNPARSEABLE
        return Checked(verdict, uncertain=trailing, basis=Basis.MARKS_ONLY)
    groups = as_tuples(true_answers)
    subject_names = tuple(subject)
    extra = _answer_only_names(groups, tuple(answer_only), _shown(subject_names, question))
    truth = truth_table(groups) if not extra[0] else truth_table(extra[0])
    tables = (truth, extra[1], rivals)
    asked = question_tokens(question) if question else ()
    allowed = name_words(groups) if extra[1] is not None else frozenset()
    runs = _echo_runs(tokens, asked)
    pairs = two_word_names(groups) if extra[1] is not None else frozenset()
    found = _found(tokens, tables, runs, allowed, subject_names, pairs)
    relation = relation_words(asked, subject_names) if asked else frozenset()
    marker, cut = correction(tokens, found, frozenset(t.norm for t in asked), relation)
    if withdrawn_and_declined(tokens, found, frozenset(t.norm for t in asked)):
        return Checked(Verdict.REFUSED, basis=Basis.WITHDRAWN)
    if given_up(tokens, found, frozenset(t.norm for t in asked)):
        return Checked(Verdict.REFUSED, True, True, Basis.GIVEN_UP)  # rules 32: "X… so I'll leave"
    if left_undecided(reply, frozenset(t.norm for t in asked)):  # rules 26: "... I can't say."
        return Checked(Verdict.REFUSED, uncertain=True, basis=Basis.UNDECIDED)
    if not cut and declines_to_choose(tokens, [(m.start, m.end) for m in found]):
        return Checked(Verdict.REFUSED, True, basis=Basis.DECLINES_TO_CHOOSE)  # rules 30
    text = hedge_text = reply
    if cut:
        hedge_text = " ".join(t.raw for t in tokens[marker:])  # "actually, I think it is X"
        tokens = tokens[cut:]
        runs = _echo_runs(tokens, asked)
        found = _found(tokens, tables, runs, allowed, subject_names, pairs)
        text = " ".join(t.raw for t in tokens)
    drafts = disowned(tokens, found)
    if drafts:  # rules 26: "..., I briefly typed USD above, ignore that."
        found = [m for m in found if m not in drafts]
    shared = shared_with_subject(tokens, found, subject_names, relation)
    glossed = codes_of_other_currencies(text, tokens, found, truth)
    qualified = qualified_units(tokens, found, groups, subject_names)
    addressed = addressed_elsewhere(tokens, found, tuple(answer_only))
    addressed |= named_as_a_country(tokens, found, tuple(answer_only))
    found = without_own_countries(tokens, found, tuple(answer_only))
    renamed = renamed_since(tokens, found)
    if renamed:  # rules 24: "Portuguese West Africa, now Angola."
        found = [m for m in found if m not in renamed]
    answers = [
        m
        for m in found
        if m.owner < 0
        and not m.negated
        and not called_former(tokens, m)
        and m not in shared.dropped
        and m not in glossed
        and m not in qualified
        and m not in addressed
    ]
    refusing = is_refusal(text)
    # rules 38: a candidate after "Keine Ahnung" or "Δεν είμαι σίγουρος" is hedged, as after "No idea"
    hedged = refusing or has_hedge(hedge_text) or opens_not_knowing(hedge_text)
    fuzzy_table = truth_table(groups)
    echoed = [Mention(i, i + 1, 0, False) for i in sorted(_echo(runs))]
    # rules 11: the subject's name is no near spelling of an answer ("the people of Fiji" is
    # no "Fijian")
    subject_named = subject_mentions(tokens, subject_names)
    taken = [*found, *echoed, *subject_named]
    tables_read = (fuzzy_table, truth, rivals)
    how = _true_basis(tokens, bool(answers), bool(cut), tables_read, taken, extra, allowed)
    if how is not None:
        defining = defining_sentences(tokens, asked, subject_names)
        rival, uncertain = rival_verdict(
            tokens, found, subject_names, defining, relation, asks_in_present(asked)
        )
        why = Basis.RIVAL
        if not rival and defining and answers:
            rival = defined_by_another(tokens, defining, answers, found, subject_names)
            why = Basis.DEFINED_BY_ANOTHER
        if not rival and len(groups) == 1:
            one = asks_for_one_thing(asked)
            rival = offers_others(tokens, text, answers, found, subject_names, truth, one)
            why = Basis.OFFERS_OTHERS
        elif not rival and answers:
            if unknown_item(tokens, answers, found, subject_names, text, (fuzzy_table, rivals)):
                rival = uncertain = True
                why = Basis.UNKNOWN_ITEM
            elif offers_others(
                tokens, text, answers, found, subject_names, truth, only_or=True
            ):  # rules 20: "Pretoria or Johannesburg, I think."
                rival = uncertain = True
                why = Basis.OFFERS_OTHERS
        if not rival and answers and another_number(tokens, answers, found, groups):
            rival, why = True, Basis.ANOTHER_NUMBER
        if not rival and subject_number_elsewhere(tokens, answers, groups, subject_named):
            rival, why = True, Basis.SUBJECT_NUMBER  # rules 24: "Sodium ... 1808; potassium"
        if (
            not rival
            and answers
            and answered_by_another(tokens, text, answers, asked, relation, subject_names, found)
        ):
            rival, why = True, Basis.ANSWERED_BY_ANOTHER
        if not rival and answers:  # rules 26: "Berzelius, in whose lab Arfwedson was ..."
            rival, unsure = answered_aside(tokens, answers, found, relation, subject_names)
            uncertain = uncertain or unsure
            why = Basis.ANSWERED_ASIDE
        if not rival and answers:  # rules 23: "The EU is a member of the EEA." asked of Germany
            rival, unsure = no_answer_role(tokens, answers, found, subject_names, asked)
            uncertain = uncertain or unsure
            why = Basis.NO_ANSWER_ROLE
        uncertain = uncertain or (bool(answers) and all(m in shared.kept for m in answers))
        uncertain = uncertain or (
            not rival and with_area_code(text) and not own_area_codes(text, subject_names)
        )  # rules 28: "+1 876" asked of Jamaica is its own
        uncertain = uncertain or (not answers and split_name(tokens, groups))
        if answers and not uncertain and not cut:
            vocabulary = type_words(truth, rivals)
            opening = unknown_opening(text, asked, subject_names, vocabulary)
            uncertain = bool(opening) and told_after(text, tokens, answers, rival, opening)
            uncertain = uncertain or (not rival and qualified_after(tokens, answers, vocabulary))
        verdict = Verdict.INCORRECT if rival else Verdict.CORRECT
        return Checked(verdict, hedged, uncertain, why if rival else how)
    # a rival told about another country is no candidate ("No idea; New Zealand's is ...")
    offered = [
        m
        for m in found
        if not m.negated
        and m not in shared.dropped
        and not (m.owner >= 0 and about_another_country(tokens, m, found, subject_names))
    ]
    # the words of "I do not know" in another language are no names ("Ich habe keine Ahnung."),
    # nor is a word of regret beside them ("Sajnos nem tudom.": rules 14)
    if not offered and not found and unknown_as_claim(text):
        return Checked(Verdict.INCORRECT, hedged, basis=Basis.UNKNOWN_CLAIM)  # rules 32
    plain = bare_text = text
    if knows_not(text):
        regretless = without_regret(clean_quotes(text))
        plain = DONT_KNOW.sub(".", regretless)
        bare_text = without_not_knowing(regretless)  # rules 38: "Da muss ich passen." names nothing
    if (
        not offered
        and not guesses(text)
        and not bare_name(bare_text)
        and not asks_a_guess(plain, asked)
        and (
            refusing
            or (
                not other_than_subject(tokens, found, subject_names)
                and declines(text)
                and not offers_a_name(tokens if plain is text else tokenize(plain), asked)
            )
        )
    ):
        return Checked(Verdict.REFUSED, basis=Basis.REFUSAL)
    who = bool(asked) and asked[0].norm == "who"
    unknown = (
        not subject_named
        and (
            (not found and (_unknown_name(plain) or unknown_sign(plain)))
            or (
                not who
                and unknown_answer(plain, asked, subject_names, type_words(truth, rivals), found)
            )
        )
    ) or (
        another_era(plain, asked)
        or (who and not found and roles_only(plain))
        or (not who and derived_from_subject(plain, _unshown(subject_names, question)))
        or _unshown_subject(tokens, subject_named, subject_names, question)
        or part_of_answer(found, rivals, groups)
        or qualified_place(tokens, found, asked)
        or _inside_a_longer_name(tokens, found)
    )
    if not found and not cut and an_unread_sentence(tokens, groups, ENGLISH_FUNCTION_WORDS):
        return Checked(
            Verdict.REFUSED, hedged, True, Basis.UNREAD_REFUSAL
        )  # rules 30: "Tsy haiko."
    return Checked(Verdict.INCORRECT, hedged, unknown, _incorrect_basis(offered, found, bool(cut)))


def _incorrect_basis(offered: Sequence[Mention], found: Sequence[Mention], cut: bool) -> Basis:
    """Why a reply that names no true answer is incorrect: a candidate named (after a
    correction with ``cut``), only names it negates or drops, or no name at all."""
    if offered:
        return Basis.CORRECTED_TO_RIVAL if cut else Basis.RIVAL_ONLY
    return Basis.NEGATED_ONLY if found else Basis.NO_NAME


def _true_basis(
    tokens: Sequence[Token],
    named: bool,
    cut: bool,
    tables: tuple[NameTable, NameTable, NameTable | None],
    taken: list[Mention],
    extra: tuple[tuple[tuple[str, ...], ...], NameTable | None],
    allowed: frozenset[str],
) -> Basis | None:
    """How the reply names a true answer (``named``: a true name found as itself, after a
    correction with ``cut``), or None when it names none: a near spelling of a true name
    (``tables``: the KG's true names, them with the answer-only names, the rivals), of a person's
    surname (answer-only short names), or an inflected true name."""
    table, truth, rivals = tables
    if named:
        return Basis.CORRECTED if cut else Basis.NAMED
    if fuzzy_answer(tokens, table, rivals, taken):
        return Basis.SPELLING
    short = extra[1]
    if short is not None and fuzzy_answer(tokens, surnames(short), rivals, taken, alone=allowed):
        return Basis.SURNAME_SPELLING
    if extra[0] and inflected_answer(tokens, truth, rivals, taken):
        return Basis.INFLECTED
    return None


_NAME_LINKS = frozenset({"of", "the", *INNER_PARTICLES})
"""Words inside a name that join its capitalised words ("Land of the Rising Sun")."""


def _inside_a_longer_name(tokens: Sequence[Token], found: Sequence[Mention]) -> bool:
    """Rules 26: whether the reply is only one name, its capitalised words joined by "of", "the"
    and name particles, that the tables do not know whole, names found only before its "of"
    ("The Land of the Rising Sun.", Japan's epithet, in which "Land" is a place; not "Citizens
    of Vatican City"): an epithet no source has, so the rules cannot decide."""
    start = 0
    while start < len(tokens) and tokens[start].norm in ARTICLES:
        start += 1
    name = tokens[start:]
    if len(name) < 3 or not found or any(t.clause != name[0].clause for t in name):
        return False
    if name[0].norm in PASSING or name[0].norm in NOT_NAMES:
        return False  # "In the Land of Fire.", "Probably ..."
    if not all(t.word and (t.raw[:1].isupper() or t.norm in _NAME_LINKS) for t in name):
        return False
    of = next((k for k, t in enumerate(tokens) if t.norm == "of" and k > start), None)
    return of is not None and all(m.end <= of for m in found)


_NAMING = frozenset({"called", "name", "named", "known"})
"""Words of a question that asks for a name."""


def _unshown(subject: tuple[str, ...], question: str) -> tuple[str, ...]:
    """The subject's names the question does not show (`_shown`)."""
    shown = set(_shown(subject, question))
    return tuple(n for n in subject if n not in shown)


def _unshown_subject(
    tokens: Sequence[Token],
    named: Sequence[Mention],
    subject: tuple[str, ...],
    question: str,
) -> bool:
    """Rules 22: whether a reply to a question about a name (`_NAMING`) is only a name of the
    subject that the question does not show ("Kampuchea." asked what Cambodia was formerly
    called): the subject's name in another form, which may be the answer (an older or native
    name), so the rules cannot decide."""
    if not any(t.norm in _NAMING for t in question_tokens(question)):
        return False
    covered = {i for m in named for i in range(m.start, m.end)}
    words = [i for i, t in enumerate(tokens) if t.norm not in ARTICLES]
    if not named or not words or any(i not in covered for i in words):
        return False
    shown = {normalize(n) for n in _shown(subject, question)}
    said = {normalize(" ".join(t.raw for t in tokens[m.start : m.end])) for m in named}
    return not said & shown


def _unknown_name(text: str) -> bool:
    """Whether a reply that names nothing the verifier knows, neither a true answer nor a rival
    nor the subject, is only a name, or is written wholly in a script other than Latin (rules 12: "Edo.", "NPT",
    "Газ.", "富士山"): it may be a name of the answer that no source has, so the rules cannot
    decide (uncertain: the judge or a person does)."""
    letters = [c for c in text if c.isalpha()]
    if letters and not any("LATIN" in unicodedata.name(c, "") for c in letters):
        return True
    stripped = text.strip()
    return name_clause(stripped) and not SENTENCES.search(stripped.rstrip(".!?"))


def _found(
    tokens: Sequence[Token],
    tables: tuple[NameTable, NameTable | None, NameTable | None],
    runs: Sequence[tuple[int, int]],
    allowed: frozenset[str] = frozenset(),
    subject: tuple[str, ...] = (),
    pairs: frozenset[tuple[str, str]] = frozenset(),
) -> list[Mention]:
    """Mentions of the true, answer-only short and rival names, less the echoes of the question
    (`_echoed`; ``runs``: `_echo_runs`) and short names with another name around them
    (`isolated`; ``allowed``: the words of the true answers' names), a short name's mention
    spanning the words of the true names beside it ("Philip Abelson" for Philip H. Abelson) or
    the middle names a reply adds (`middle_names`; ``pairs``: `two_word_names`); rules 26: no
    rival inside the subject's name in the plural (`subject_plurals`)."""
    truth, short, rivals = tables
    chosen = [t for t in (truth, short, rivals) if t is not None]
    found = mentions(tokens, *chosen)
    echoed = _echoed(tokens, runs, found, subject)
    short_spans = {(a, b) for a, b, _ in short.matches(tokens)} if short is not None else set()
    kept = []
    starts = {m.start for m in found}
    plurals = subject_plurals(tokens, subject) if subject else []
    for m in found:
        if (m.start, m.end) in echoed or _direction(tokens, m):
            continue
        if m.owner >= 0 and any(a <= m.start and m.end <= b for a, b in plurals):
            continue  # rules 26: "Kent" of "two Kent Counties" asked of Kent County
        if _direction_of(tokens, m, found, starts):
            continue
        if m.owner < 0 and (m.start, m.end) in short_spans:
            span = isolated(tokens, m, allowed) or middle_names(tokens, m, allowed, pairs)
            if not span:
                continue
            m = Mention(span[0], span[1], m.owner, m.negated)
        kept.append(m)
    return kept


def _direction(tokens: Sequence[Token], m: Mention) -> bool:
    """Whether a mention is a word of direction before "of" ("650 km north of London", rules
    10: "north-east of Madrid"), no place named "North" or "North East"."""
    return (
        m.end < len(tokens)
        and tokens[m.end].norm == "of"
        and all(
            COMPASS.fullmatch(t.norm) is not None and t.raw.islower()
            for t in tokens[m.start : m.end]
        )
    )


def _direction_of(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], starts: set[int]
) -> bool:
    """Whether a mention is a word of direction before another name ("Eastern Chile",
    "North-western Spain": rules 9), no place named "Northern" or "Western"; not a word of a
    longer name ("North Korea")."""
    if m.end - m.start != 1 or COMPASS.fullmatch(tokens[m.start].norm) is None:
        return False
    j = m.end
    while j < len(tokens) and COMPASS.fullmatch(tokens[j].norm):
        j += 1
    if j == len(tokens) or j not in starts or tokens[j].clause != tokens[m.start].clause:
        return False
    return not any(f.start <= m.start and f.end > m.end for f in found)


def _echoed(
    tokens: Sequence[Token],
    runs: Sequence[tuple[int, int]],
    found: Sequence[Mention],
    subject: tuple[str, ...],
) -> set[tuple[int, int]]:
    """Spans of mentions that only repeat the question: inside a run of its words (``runs``:
    `_echo_runs`), the name of the subject ("The capital of Djibouti.") or one of several
    options the question lists and the reply reads back in its order."""
    if not runs:
        return set()
    subject_spans = (
        {(a, b) for a, b, _ in truth_table((subject,)).matches(tokens)} if subject else set()
    )
    out = set()
    for start, end in runs:
        inside = [m for m in found if start <= m.start and m.end <= end]
        spans = {(m.start, m.end) for m in inside}
        if len(spans) >= 2:
            out.update(spans)
        else:
            out.update(span for span in spans if span in subject_spans)
    return out


ECHO_MIN_TOKENS = 3
"""A run of this many tokens as in the question is an echo of it, not an answer."""


def _echo_runs(tokens: Sequence[Token], asked: Sequence[Token]) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of at least `ECHO_MIN_TOKENS` reply tokens that the question
    has in the same order ("the capital of Djibouti")."""
    if len(asked) < ECHO_MIN_TOKENS:
        return []
    words = [t.norm for t in asked]
    where: dict[str, list[int]] = {}
    for j, word in enumerate(words):
        where.setdefault(word, []).append(j)
    runs: list[tuple[int, int]] = []
    n = len(tokens)
    for i in range(n):
        longest = 0
        for j in where.get(tokens[i].norm, ()):
            k = 1
            while i + k < n and j + k < len(words) and tokens[i + k].norm == words[j + k]:
                k += 1
            longest = max(longest, k)
        if longest >= ECHO_MIN_TOKENS and not any(a <= i and i + longest <= b for a, b in runs):
            runs.append((i, i + longest))
    return runs


def _echo(runs: Sequence[tuple[int, int]]) -> set[int]:
    """Positions of the reply's tokens inside the echo runs (`_echo_runs`)."""
    return {i for start, end in runs for i in range(start, end)}


def _padded(extra: tuple[AnswerNames, ...], n: int) -> tuple[AnswerNames, ...]:
    return (*extra[:n], *[AnswerNames()] * (n - len(extra)))


@lru_cache(maxsize=4096)
def _shown(subject: tuple[str, ...], question: str) -> tuple[str, ...]:
    """The subject's names the question shows (all of them without a question): a name of the
    subject the question does not show ("Burma" when asked about "Myanmar") is no echo."""
    if not question:
        return subject
    asked = f" {normalize(question)} "
    return tuple(n for n in subject if f" {normalize(n)} " in asked)


def _answer_only_names(
    groups: tuple[tuple[str, ...], ...],
    extra: tuple[AnswerNames, ...],
    subject: tuple[str, ...],
) -> tuple[tuple[tuple[str, ...], ...], NameTable | None]:
    """(true names with the answer-only names, or () when there are none; the table of short
    answer-only names, or None). An answer-only name of the subject the question shows
    (``subject``: `_shown`) is left out."""
    if not extra:
        return (), None
    return _answer_only_cached(groups, extra, subject)


@lru_cache(maxsize=4096)
def _answer_only_cached(
    groups: tuple[tuple[str, ...], ...],
    extra: tuple[AnswerNames, ...],
    subject: tuple[str, ...],
) -> tuple[tuple[tuple[str, ...], ...], NameTable | None]:
    own = {normalize(n) for n in subject}
    full = tuple(
        (*group, *(n for n, folded in _normalized(names.names) if folded not in own))
        for group, names in zip(groups, _padded(extra, len(groups)), strict=True)
    )
    short = NameTable(
        (name, -1 - i)
        for i, names in enumerate(extra)
        for name, folded in _normalized(names.short)
        if folded not in own
    )
    return full, (short if short.size else None)


@lru_cache(maxsize=16384)
def _normalized(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(name, `normalize`'s form) of an entity's answer-only names, worked out once; a name's
    signs are kept ("GH₵" is not the subject's code "GH")."""
    return tuple((name, normalize(name) + _signs(name)) for name in names)


def _signs(name: str) -> str:
    """The symbols (currency signs) of a name that `normalize` drops, as a suffix."""
    signs = "".join(c for c in name if unicodedata.category(c) == "Sc")
    return f" {signs}" if signs else ""


def verify_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
) -> Verdict:
    """The verdict of `check_wh`."""
    return check_wh(reply, true_answers, rivals, subject).verdict


def parse_judge_reply(text: str) -> Verdict:
    """Read an LLM judge's yes/no verdict on a response (A.6 answer-verification prompt)."""
    if not text or not text.strip():
        return Verdict.UNPARSEABLE
    answer = first_word_answer(text)
    if answer is None:
        norm = normalize(text)
        if re.search(r"\b(?:incorrect|not correct|wrong|is false)\b", norm):
            answer = "no"
        elif re.search(r"\b(?:correct|is true|right)\b", norm):
            answer = "yes"
    if answer is None:
        return Verdict.UNPARSEABLE
    return Verdict.CORRECT if answer == "yes" else Verdict.INCORRECT


def self_contradiction(reply: str, expected: str, candidate_label: str = "") -> bool:
    """Heuristic: the first word is wrong but the explanation affirms the expected answer.

    E.g. "No, the Australian dollar (AUD) is the official currency of Nauru." to a question
    whose answer is Yes. With ``candidate_label`` the explanation must also mention it.
    """
    answer = first_word_answer(reply)
    want = expected.strip().lower()
    if answer is None or answer == want:
        return False
    body = _strip_lead(clean_quotes(reply))
    explanation = re.sub(r"^[A-Za-z]+[\s,.!:;\-–—]*", "", body, count=1).strip()
    if len(explanation.split()) < 3:
        return False
    if candidate_label and not mentions_any(explanation, [candidate_label], fuzzy=False):
        return False
    polarity = "no" if _NEGATION.search(explanation) else "yes"
    return polarity == want
