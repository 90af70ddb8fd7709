"""Rules 23 of the Wh verifier: a true object named in a role that answers nothing is no answer.
"The EU is a member of the EEA." asked of Germany names two true organisations and says nothing
of Germany; "France, Belgium and Luxembourg are all part of the EU." names France's neighbours
as co-subjects of another predicate. The trial's SmolLM2 replies (issue #34, trial 3) change;
ordinary replies written for these tests (not taken from the labelled sets), asked as a run asks
them of the three bundled KGs, keep their verdicts."""

from __future__ import annotations

import pytest
from verdict_support import bundled_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.roles import answer_type_words, relation_stems
from kglens_tui.answers.verify import check_wh
from kglens_tui.answers.words import question_tokens
from kglens_tui.bench.verifier_bench import Rivals
from kglens_tui.core.verdict import Verdict

GERMANY = "Which international organisations is Germany (also known as Federal Republic of Germany) a member of?"  # noqa: E501
GERMANY_ORGS = (
    ("Council of Europe",), ("European Economic Area",), ("European Union",), ("G7",),
    ("OECD",), ("Schengen Area",), ("United Nations",), ("euro area",),
)  # fmt: skip
FRANCE = "Which countries share a land border with France (also known as French Republic)?"
FRANCE_NEIGHBOURS = (
    ("Andorra",), ("Belgium",), ("Switzerland",), ("Germany",), ("Spain",), ("Italy",),
    ("Luxembourg",), ("Monaco",),
)  # fmt: skip
INDIA = "Which countries share a land border with India (also known as Republic of India)?"
INDIA_NEIGHBOURS = (
    ("Bangladesh",), ("Bhutan",), ("China",), ("Myanmar",), ("Nepal",), ("Pakistan",),
)  # fmt: skip
SERBIA = "Which countries share a land border with Serbia (also known as Republic of Serbia)?"
SERBIA_NEIGHBOURS = (
    ("Bulgaria",), ("Bosnia and Herzegovina",), ("Croatia",), ("Hungary",),
    ("North Macedonia",), ("Montenegro",), ("Romania",), ("Kosovo",),
)  # fmt: skip
CHAD = "What are the official languages of Chad (also known as Republic of Chad)?"
BELGIUM = "What are the official languages of Belgium (also known as Kingdom of Belgium)?"
CURRENCY = "What currency is used in France (also known as French Republic)?"
CAPITAL = "What is the capital of Australia (also known as Commonwealth of Australia)?"
VANADIUM = "Which countries are the three largest producers of Vanadium (also known as V)?"
TUNGSTEN = "Which countries hold the largest reserves of Tungsten (also known as W)?"
POLONIUM = "Who discovered Polonium (also known as Po)?"
BAYERN = "Where is Bayern located?"
HARRIS = "Where is Harris County, Texas (also known as Harris County) located?"


def _org(member: str) -> str:
    return f"Which international organisations is {member} a member of?"


EU_COE = (("Council of Europe",), ("European Union",), ("United Nations",))


@pytest.mark.parametrize(
    ("reply", "question", "answers"),
    [
        ("The European Union (EU) is a member of the European Economic Area (EEA).", GERMANY,
         GERMANY_ORGS),
        ("The European Union (EU) is a member of the European Economic Area (EEA).",
         _org("Lithuania (also known as Republic of Lithuania)"), GERMANY_ORGS),
        ("The European Union (EU) is a member of the Council of Europe.",
         _org("Malta (also known as Republic of Malta)"), EU_COE),
        ("The European Union (EU) is a member of the Council of Europe.",
         _org("Croatia (also known as Republic of Croatia)"), EU_COE),
        ("The European Union (EU) is a member of the Council of Europe (COE).",
         _org("Luxembourg (also known as Grand Duchy of Luxembourg)"), EU_COE),
        ("The United Nations (UN) is a member of the United Nations.",
         _org("Spain (also known as Kingdom of Spain)"), EU_COE),
        ("The United Nations (UN) and the United Nations Economic Commission for the Americas "
         "(ECA) are two international organisations that are members of the UN.",
         _org("Trinidad and Tobago (also known as Republic of Trinidad and Tobago)"),
         (("United Nations",),)),
        ("The United Nations (UN) and the United Nations Economic Commission for the Americas "
         "(ECA) are two international organisations that are members of the UN.",
         _org("Trinidad and Tobago (also known as Republic of Trinidad and Tobago)"),
         (("United Nations",), ("Commonwealth of Nations",))),
    ],
)  # fmt: skip
def test_the_trials_members_of_another_organisation_name_no_answer(
    rivals: Rivals, reply: str, question: str, answers: tuple[tuple[str, ...], ...]
) -> None:
    """Issue #34, trial 3, finding 3: were correct."""
    got = bundled_verdict(
        rivals, reply, question, answers, predicate="member_of", object_type="organization"
    )
    assert got is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("reply", "question", "answers", "expected"),
    [
        ("The countries of France, Belgium, and Luxembourg are all part of the European Union "
         "(EU).", FRANCE, FRANCE_NEIGHBOURS, "incorrect"),  # trial 3: was correct
        ("The countries of India and China are both part of the Indian subcontinent.", INDIA,
         INDIA_NEIGHBOURS, "incorrect"),  # trial 3: was correct
        # the answer given is the other object, Hungary, a true one; Croatia is no answer
        ("The countries of Serbia and Croatia share a land border with Hungary.", SERBIA,
         SERBIA_NEIGHBOURS, "correct"),
        ("Serbia and Croatia share a land border with Italy.", SERBIA, SERBIA_NEIGHBOURS,
         "incorrect"),
        ("Serbia and Croatia share a border.", SERBIA, SERBIA_NEIGHBOURS, "correct"),
        ("France borders Belgium, Spain and Italy.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("Belgium and Spain border France.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("France shares borders with Belgium.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("Belgium, Luxembourg, Germany...", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("Its neighbours are Belgium, Germany and Spain.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("France and Spain are neighbours.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("France and Belgium share a border.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("Spain to the south and Belgium to the north.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        ("Frankreich grenzt an Belgien, Deutschland und die Schweiz.", FRANCE,
         FRANCE_NEIGHBOURS, "correct"),
        ("La France partage ses frontières avec la Belgique et l'Espagne.", FRANCE,
         FRANCE_NEIGHBOURS, "correct"),
        ("France and Italy share a land border with Switzerland.", FRANCE, FRANCE_NEIGHBOURS,
         "correct"),
        ("Belgium borders Germany.", FRANCE, FRANCE_NEIGHBOURS, "incorrect"),
        ("Spain shares a land border with Andorra.", FRANCE, FRANCE_NEIGHBOURS, "incorrect"),
        ("France, Belgium and Luxembourg are all in the eurozone.", FRANCE, FRANCE_NEIGHBOURS,
         "incorrect"),
        ("India borders Pakistan, China, Nepal, Bhutan, Bangladesh and Myanmar.", INDIA,
         INDIA_NEIGHBOURS, "correct"),
        ("Pakistan and China border India.", INDIA, INDIA_NEIGHBOURS, "correct"),
        ("India and Nepal share a long open border.", INDIA, INDIA_NEIGHBOURS, "correct"),
        ("China borders Pakistan.", INDIA, INDIA_NEIGHBOURS, "incorrect"),
        # another sentence says it of them: the list is an answer
        ("The countries of France and Spain are both in Europe. They share a land border in "
         "the Pyrenees.", FRANCE, FRANCE_NEIGHBOURS, "correct"),
        # a name alone before a colon is no list beside the subject
        ("Only Spain: France is bordered by it in the south.", FRANCE, FRANCE_NEIGHBOURS,
         "correct"),
        ("Spain: France is a country of Western Europe.", FRANCE, FRANCE_NEIGHBOURS,
         "correct"),
    ],
)  # fmt: skip
def test_shares_a_border_with(
    rivals: Rivals,
    reply: str,
    question: str,
    answers: tuple[tuple[str, ...], ...],
    expected: str,
) -> None:
    got = bundled_verdict(
        rivals, reply, question, answers, predicate="shares_border_with", object_type="country"
    )
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Germany is a member of the EU and the UN.", "correct"),
        ("It is a member of the UN.", "correct"),
        ("The EU, the OECD and the UN.", "correct"),
        ("Members: EU, UN.", "correct"),
        ("Germany belongs to the European Union, the United Nations and the OECD.", "correct"),
        ("Deutschland ist Mitglied der EU und der Vereinten Nationen.", "correct"),
        ("- European Union\n- United Nations\n- G7", "correct"),
        ("The European Union, of which Germany is a founding member.", "correct"),
        ("The EU and the UN count Germany among their members.", "correct"),
        ("Germany and France are members of the EU.", "correct"),
        ("Germany and the EU are both members of the UN.", "correct"),  # the UN is given
        ("The Arab League — sorry, I mean the EU.", "correct"),
        ("Germany is a member of the Arab League.", "incorrect"),
        ("The EU is a member of the UN.", "incorrect"),
        ("The European Union is a member of the G7.", "incorrect"),
        ("Germany and the EU are both in Europe.", "incorrect"),
    ],
)
def test_member_of(rivals: Rivals, reply: str, expected: str) -> None:
    got = bundled_verdict(
        rivals, reply, GERMANY, GERMANY_ORGS, predicate="member_of", object_type="organization"
    )
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "question", "answers", "predicate", "object_type", "expected"),
    [
        ("The official languages of Chad are Arabic and French.", CHAD,
         (("Arabic",), ("French",)), "official_language", "language", "correct"),
        ("Arabic and French are the official languages.", CHAD, (("Arabic",), ("French",)),
         "official_language", "language", "correct"),
        ("French and Arabic.", CHAD, (("Arabic",), ("French",)), "official_language",
         "language", "correct"),
        ("Dutch, French and German are official in Belgium.", BELGIUM,
         (("German",), ("French",), ("Dutch",)), "official_language", "language", "correct"),
        ("Le néerlandais, le français et l'allemand.", BELGIUM,
         (("German",), ("French",), ("Dutch",)), "official_language", "language", "correct"),
        ("France uses the euro (EUR).", CURRENCY, (("Euro",),), "currency", "currency",
         "correct"),
        ("France and Germany both use the euro.", CURRENCY, (("Euro",),), "currency",
         "currency", "correct"),
        ("The euro is the currency of France.", CURRENCY, (("Euro",),), "currency", "currency",
         "correct"),
        ("The euro.", CURRENCY, (("Euro",),), "currency", "currency", "correct"),
        ("Canberra is the capital of Australia.", CAPITAL, (("Canberra",),), "capital", "city",
         "correct"),
        ("The capital is Canberra.", CAPITAL, (("Canberra",),), "capital", "city", "correct"),
        ("Canberra is the capital.", CAPITAL, (("Canberra",),), "capital", "city", "correct"),
        ("Sydney is the largest city; the capital is Canberra.", CAPITAL, (("Canberra",),),
         "capital", "city", "correct"),
        ("Sydney.", CAPITAL, (("Canberra",),), "capital", "city", "incorrect"),
        ("Australia: Canberra has been the seat of government since 1913.", CAPITAL,
         (("Canberra",),), "capital", "city", "correct"),
        ("The euro — France has no other currency.", CURRENCY, (("Euro",),), "currency",
         "currency", "correct"),
    ],
)  # fmt: skip
def test_other_predicates_of_the_country_kg(
    rivals: Rivals,
    reply: str,
    question: str,
    answers: tuple[tuple[str, ...], ...],
    predicate: str,
    object_type: str,
    expected: str,
) -> None:
    got = bundled_verdict(
        rivals, reply, question, answers, predicate=predicate, object_type=object_type
    )
    assert got.value == expected


VANADIUM_TOP = (("China",), ("Russia",), ("South Africa",))
TUNGSTEN_TOP = (("China",), ("Russia",), ("United States",))
CURIES = (("Marie Curie",), ("Pierre Curie",))


@pytest.mark.parametrize(
    ("reply", "question", "answers", "predicate", "object_type", "expected"),
    [
        ("China, Russia and South Africa are the three largest producers of vanadium.",
         VANADIUM, VANADIUM_TOP, "top_producer", "country", "correct"),
        ("The three largest producers are China, Russia and South Africa.", VANADIUM,
         VANADIUM_TOP, "top_producer", "country", "correct"),
        ("China, Russia and South Africa.", VANADIUM, VANADIUM_TOP, "top_producer", "country",
         "correct"),
        ("China, Russia and the United States hold the largest reserves of Tungsten.",
         TUNGSTEN, TUNGSTEN_TOP, "top_reserve_holder", "country", "correct"),
        ("China and Russia share a long border with Mongolia.", TUNGSTEN, TUNGSTEN_TOP,
         "top_reserve_holder", "country", "correct"),  # a relation of its own: no role read
        ("Marie Curie and Pierre Curie discovered it in 1898.", POLONIUM, CURIES,
         "discovered_by", "person", "correct"),
        ("Marie and Pierre Curie.", POLONIUM, CURIES, "discovered_by", "person", "correct"),
    ],
)  # fmt: skip
def test_the_elements_kg(
    rivals: Rivals,
    reply: str,
    question: str,
    answers: tuple[tuple[str, ...], ...],
    predicate: str,
    object_type: str,
    expected: str,
) -> None:
    got = bundled_verdict(
        rivals, reply, question, answers, kg="elements", predicate=predicate,
        object_type=object_type,
    )  # fmt: skip
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("Bayern is in Germany.", BAYERN, "Germany", "correct"),
        ("Germany.", BAYERN, "Germany", "correct"),
        ("In Germany, in the south-east.", BAYERN, "Germany", "correct"),
        ("Bayern liegt in Deutschland.", BAYERN, "Germany", "correct"),
        ("It is located in southern Germany.", BAYERN, "Germany", "correct"),
        ("In Germany — Bayern is its largest state.", BAYERN, "Germany", "correct"),
        ("Germany is located in Europe.", BAYERN, "Germany", "incorrect"),  # of Germany
        ("Harris County is in Texas.", HARRIS, "Texas", "correct"),
        ("Texas.", HARRIS, "Texas", "correct"),
        ("Houston, Texas.", HARRIS, "Texas", "correct"),
        ("Texas is located in the United States.", HARRIS, "Texas", "incorrect"),
    ],
)
def test_the_places_kg(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    got = bundled_verdict(
        rivals, reply, question, ((answer,),), kg="places", predicate="located_in",
        object_type="place",
    )  # fmt: skip
    assert got.value == expected


NEIGHBOURS = NameTable([("Belgium", 1), ("Spain", 2), ("Portugal", 3), ("France", 4)])


@pytest.mark.parametrize(
    ("reply", "verdict", "uncertain"),
    [
        ("France and Belgium are old friends.", Verdict.INCORRECT, True),  # another relation?
        ("France and Belgium are part of the Benelux.", Verdict.INCORRECT, False),
        ("Belgium borders Portugal.", Verdict.INCORRECT, False),
        ("France borders Belgium and Spain.", Verdict.CORRECT, False),
    ],
)
def test_a_reading_it_cannot_decide_is_uncertain(
    reply: str, verdict: Verdict, uncertain: bool
) -> None:
    got = check_wh(reply, [["Belgium"], ["Spain"]], NEIGHBOURS, ["France"], question=FRANCE)
    assert (got.verdict, got.uncertain) == (verdict, uncertain)


@pytest.mark.parametrize(
    ("question", "subject", "kinds", "stems"),
    [
        (GERMANY, ("Germany", "Federal Republic of Germany"), {"international", "organisation"},
         ("member",)),
        (FRANCE, ("France", "French Republic"), {"countrie"}, ("border", "land", "share")),
        (CURRENCY, ("France", "French Republic"), {"currency"}, ("used",)),
        (CAPITAL, ("Australia", "Commonwealth of Australia"), set(), ("capital",)),
        (POLONIUM, ("Polonium", "Po"), set(), ("discovered",)),
    ],
)  # fmt: skip
def test_the_relation_less_the_answers_type(
    question: str, subject: tuple[str, ...], kinds: set[str], stems: tuple[str, ...]
) -> None:
    asked = question_tokens(question)
    assert answer_type_words(asked) == kinds
    assert relation_stems(asked, subject) == stems
