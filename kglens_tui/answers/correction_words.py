"""The words by which a reply corrects, takes back or updates a name it gave ("no, wait",
"I mean", "or rather", "update:"), by first word for the readings that look for them."""

from __future__ import annotations

from collections.abc import Sequence

from kglens_tui.answers.mentions import GERMANIC_NOT

STRONG_CORRECTIONS = (
    ("sorry", "i", "mean"),
    ("sorry", "i", "meant"),
    ("correction",),
    ("final", "answer"),
    ("scratch", "that"),
    ("my", "mistake"),
    ("no", "wait"),
    ("or", "rather"),
    ("let", "me", "correct"),
    ("on", "second", "thought"),
    ("correct", "myself"),
    ("actually", "its"),
    ("actually", "it", "is"),
    ("actually", "it", "was"),
    ("actually", "i", "think"),
    ("actually", "i", "believe"),
)
"""Words after which the reply takes back what it said: what follows is its answer (rules 10:
"final answer"; rules 11: "actually it was", as "actually it is")."""


TAKING_BACK = (
    ("strike", "that"),
    ("make", "that"),
    ("let", "me", "rephrase"),
    ("let", "me", "revise"),
    ("let", "me", "restate"),
    ("let", "me", "rethink"),
    ("let", "me", "try", "again"),
    ("let", "me", "recount"),
    ("let", "me", "recheck"),
    ("let", "me", "reconsider"),
    ("let", "me", "recalculate"),
    ("i", "stand", "corrected"),
    ("i", "should", "say"),
    ("i", "should", "have", "said"),
    ("i", "misspoke"),
    ("i", "mixed"),
    ("i", "confused"),
    ("i", "was", "confusing"),
    ("i", "got", "that", "wrong"),
    ("i", "got", "it", "wrong"),
    ("i", "was", "wrong"),
    ("my", "bad"),
    ("my", "error"),
    ("i", "take", "that", "back"),
    ("i", "retract"),
    ("hang", "on"),
    ("hold", "on"),
    ("erratum",),
    ("edit",),
    ("disregard", "that"),
    ("ignore", "that"),
    ("forget", "that"),
    ("je", "voulais", "dire"),
    ("je", "veux", "dire"),
    ("quise", "decir"),
    ("queria", "decir"),
    ("quiero", "decir"),
    ("volevo", "dire"),
    ("quis", "dizer"),
    ("queria", "dizer"),
    ("ich", "meine"),
    ("ich", "meinte"),
    ("ich", "wollte", "sagen"),
    ("ik", "bedoel"),
    ("ik", "bedoelde"),
    ("chodzilo", "mi", "o"),
    ("mialem", "na", "mysli"),
    ("mialam", "na", "mysli"),
    ("myslel", "jsem"),
    ("myslela", "jsem"),
    ("myslel", "som"),
    ("myslela", "som"),
    ("jag", "menade"),
    ("jeg", "mente"),
    ("tarkoitin",),
    ("ugy", "ertem"),
    ("am", "vrut", "sa", "spun"),
    ("demek", "istedim"),
    ("maksud", "saya"),
    ("maksudku",),
    ("y", "toi", "la"),
    ("revised",),
    ("то", "ест"),  # "то есть", as `mentions.tokenize` folds it (rules 26)
    ("correcting", "myself"),
    ("id", "revise"),
    ("i", "would", "revise"),
    ("yani",),
    ("on", "checking"),
    ("on", "closer", "inspection"),
    ("on", "second", "look"),
    ("need", "to", "correct"),
    ("have", "to", "correct"),
    ("myslim",),
    ("mislim",),
    ("имам", "предвид"),
    ("imam", "predvid"),
    ("mi", "volas", "diri"),
    ("mi", "celis"),
    ("gabh", "mo", "leithsceal"),
    ("that", "was", "a", "slip"),
)
"""Words of a speaker taking their words back (rules 13: "strike that", "let me rephrase", "I stand
corrected", "I should say", "I confused it with", "my bad"; rules 14: "hang on", "edit:", "erratum",
"disregard that", "d'oh", "I meant" in French, Spanish, Italian, Portuguese, German and Dutch; rules
15: "[Revised]", Russian "то есть"; not "more precisely" or "strictly speaking", which narrow an
answer: "Canberra — more precisely, the ACT"; rules 17: "correcting myself", "I'd revise", Turkish
"yani", "on checking", "on closer inspection"; rules 36: "let me recount", "recheck",
"reconsider", "recalculate"; rules 19: "I need to correct that", Czech, Slovak and
Serbo-Croatian "I mean" ("myslím", "mislim") and Bulgarian "имам предвид" (and its Latin letters),
where a candidate follows; rules 18: "I meant" in Polish, Czech, Slovak, the Nordic languages,
Finnish, Hungarian, Romanian, Turkish, Indonesian and Vietnamese; rules 26: "hold on", as "hang
on"): a correction only where what follows them offers an answer (`corrections._offered_back`:
rules 14), not in "Canberra, I should say, is the capital" or "Forget that Sydney is bigger"."""


UPDATES = (("update",),)
"""Rules 20: a word that brings newer facts takes back what came before where what follows gives a
candidate as the answer now (`corrections._updated_to`: "Donald Trump. Update: Joe Biden is the
president now."), not where it gives none ("Canberra. Update: no change since 1913.") or tells of
another ("Canberra. Update: Sydney is still the biggest city.")."""


MEANING = (
    ("i", "mean"),
    ("i", "meant"),
    ("i", "mean", "to", "say"),
    ("i", "meant", "to", "say"),
)
"""Rules 20: "I mean" takes back what came before only where what follows offers an answer
(`corrections._offered_back`) or names a candidate the tables know ("Sydney, I mean Canberra"), not
where it says more about the answer ("Canberra; I meant to add that it was purpose-built.", "Bern (I
meant the city, not the canton)")."""


_WEAK_CORRECTIONS = (
    ("actually",),
    ("in", "fact"),
    ("but", "it", "is"),
    ("but", "its"),
    ("but", "it", "was"),
    ("but", "the", "answer", "is"),
    ("but", "the", "correct", "answer", "is"),
    ("but", "really"),
    ("though", "its"),
    ("though", "it", "is"),
    ("id", "go", "with"),
    ("ill", "go", "with"),
    ("i", "would", "go", "with"),
    ("i", "will", "go", "with"),
    ("id", "pick"),
    ("lets", "say"),
    ("ill", "pick"),
    ("if", "i", "had", "to", "pick"),
    ("if", "i", "had", "to", "choose"),
    ("my", "answer", "is"),
    ("my", "final", "answer", "is"),
    ("reconsider",),
    ("on", "reflection"),
    ("come", "to", "think", "of", "it"),
    ("now", "its"),
    ("now", "it", "is"),
    ("now", "that", "i", "think", "of", "it"),
    ("now", "that", "i", "think", "about", "it"),
)
"""Words that may correct: what follows is the answer when it names a candidate (rules 9:
"I'd reconsider", "on reflection", "come to think of it"; rules 20: "now it's", after what held
before: "Canberra was the capital until 2020; now it's Sydney."; rules 26: "let's say")."""


OR_RATHER = (
    ("mejor", "dicho"),
    ("o", "meglio"),
    ("ou", "melhor"),
    ("ou", "plutot"),
    ("oder", "besser", "gesagt"),
    ("oder", "vielmehr"),
    ("beter", "gezegd"),
    ("of", "liever"),
    ("a", "wlasciwie"),
    ("eller", "snarare"),
    ("eller", "rettere", "sagt"),
    ("tai", "oikeastaan"),
)
"""Rules 18: "or rather" in Spanish, Italian, Portuguese, French, German, Dutch, Polish, the
Nordic languages and Finnish; rules 19: they narrow an answer as often as they correct it
("Deutschland, oder besser gesagt Süddeutschland"), so they take it back only for a name the
tables know ("Kraków, a właściwie Warszawa"; rules 20: or a place's English name, `a_place`:
"Canberra, ou plutôt Sydney")."""


DENIAL_CLAUSES = (
    ("不", "对"),
    ("不", "對"),
    ("い", "え"),
    ("い", "い", "え"),
    ("아", "니"),
    ("아", "니", "요"),
)
"""Rules 17: Chinese "不对" (wrong), Japanese "いえ", "いいえ" and Korean "아니", "아니요" (no),
written a letter a token: standing as a clause of their own after the reply's first clause
("東京… いえ、京都です。", "Dodoma. 不对，是达累斯萨拉姆。"), they take back what came before, and
what follows is the answer, as after a strong correction."""


BACK_TAIL_PHRASES = (
    ("ata", "i", "gceist", "agam"),
    ("demoqchi", "edim"),
    ("demək", "istəyirdim"),
    ("гэж", "хэлэх", "гэсэн", "юм"),
)
"""Rules 25: "I meant" written after the answer, in Irish, Uzbek, Azerbaijani and Mongolian
("gabh mo leithscéal, Toronto atá i gceist agam": sorry, Toronto is what I mean)."""


CLOSING_PHRASES = (
    ("in", "the", "end"),
    ("after", "all"),
    ("finally",),
    ("eventually",),
    ("ultimately",),
    ("on", "balance"),
)
"""Rules 26: words of deciding that may close the name a weak correction offers ("I'd go with
La Paz in the end")."""


DISOWNING = (("ignore", "that"), ("disregard", "that"), ("ignore", "it"), ("disregard", "it"))
"""Rules 26: a clause of these words alone, ending the reply, takes back the names of the clause
before it ("The Canadian dollar (edit: I briefly typed USD above, ignore that).")."""


MARKERS_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}


for _marker in (
    *STRONG_CORRECTIONS,
    *MEANING,
    *UPDATES,
    *_WEAK_CORRECTIONS,
    *OR_RATHER,
    *TAKING_BACK,
    *DENIAL_CLAUSES,
):
    MARKERS_BY_FIRST.setdefault(_marker[0], []).append(_marker)


def marker_at(norms: Sequence[str], i: int) -> bool:
    """Whether a correction's words (`MARKERS_BY_FIRST`) start at ``i``."""
    return any(
        tuple(norms[i : i + len(marker)]) == marker for marker in MARKERS_BY_FIRST.get(norms[i], ())
    )


_RETRACTING_ELSEWHERE = frozenset(
    {"przepraszam", "entschuldigung", "scusa", "scusate", "scusi", "desculpa", "desculpe",
     "disculpa", "disculpe", "excusez", "izvini", "izvinite", "oprostite", "prominte",
     "anteeksi", "bocsanat", "forlat", "undskyld", "beklager", "maaf", "samahani", "nie", "nei",
     "hayir", "barkatu", "pardonu", "hindi", "kechirasiz", "bagislayin", "уучлаар"}
)  # fmt: skip
"""Rules 18: "sorry" and "no" in more languages, written as one word (Polish "przepraszam",
German "Entschuldigung", Italian "scusa", Polish "nie", Norwegian "nei", Turkish "hayır"; rules
22: Basque "barkatu", Esperanto "pardonu", Tagalog "hindi"; rules 25: Uzbek "kechirasiz",
Azerbaijani "bağışlayın" and Mongolian "уучлаарай", as `mentions.tokenize` stems it)."""


ALSO_NOT = frozenset({"nie", "hindi"})
"""Words of `_RETRACTING_ELSEWHERE` that also mean "not": they take back only as a clause of
their own ("Sydney, nie, Canberra"; not "Canberra, nie Sydney")."""


WRITTEN_LOWER = frozenset({"hindi"})
"""Rules 22: words of `_RETRACTING_ELSEWHERE` that are also a name (Tagalog "hindi", no, is the
language Hindi): they take back only written in lower case ("Kathmandu — ay, hindi, Pokhara
pala."; not "English, Hindi, Urdu")."""


RETRACTING_SINCE_14 = frozenset(
    {"doh", "nope", "nein", "nej", "pardon", "perdon", *_RETRACTING_ELSEWHERE}
)
"""Retracting words of rules 14, 15, 17 and 18: they take a candidate back only where what follows
offers an answer as `corrections._offered_back` reads it ("Nope — Canberra."; not "Nope — Sydney is
just the biggest city.")."""


RETRACTING = frozenset({"no", "sorry", "wait", "oops", "whoops", *RETRACTING_SINCE_14})
"""Words that, opening a clause right after a candidate ("Solid — sorry, liquid.", "Period 5...
no, period 6.", "Hanoi. Wait, or is it ..."; rules 15: "nope", and "no" in German and the Nordic
languages; not Dutch "nee", which folds like "née"; rules 17: "pardon", Spanish "perdón"; rules
18: `_RETRACTING_ELSEWHERE`), take that candidate back when what follows offers another
(`corrections._retracted`)."""


INTERJECTIONS = frozenset({"actually", "er", "erm", "um", "uh", "hmm", "oh", "ah", "well", "anzi"})
"""Words that may come before a retracting word in its clause ("Ararat... actually no, ...";
rules 15: Italian "anzi no")."""


DENYING = frozenset({"not", "never", *GERMANIC_NOT})
"""Words that deny the name right after them ("nope, not Istanbul", "nein, nicht Sydney")."""


DENIED_AFTER = frozenset({"isnt", "wasnt", "not", *GERMANIC_NOT})
"""Words that, after a name and a verb of being, deny it ("Istanbul isn't the capital",
"Sydney is het niet")."""


DENIALS = frozenset({"no", "nope", "nein", "nej"})
"""Words of denial that, standing as a clause of their own, take back what came before."""


AFTER_A_DENIAL = frozenset(
    {"it", "its", "i", "im", "id", "ive", "the", "that", "thats", "this", "sorry", "wait",
     "actually", "not", "way", "no", "nope", "oops", "that's", "they", "he", "she", "we", "you"}
)  # fmt: skip
"""Words a "no" that denies may run on into without a comma ("No it's Canberra", "no wait")."""


UNTRANSLITERATED = frozenset(
    word
    for marker in (*(m for ms in MARKERS_BY_FIRST.values() for m in ms), *RETRACTING)
    for word in ((marker,) if isinstance(marker, str) else marker)
    if not word.isascii()
)
"""Rules 26: the words of corrections written in another alphabet ("то есть", "уучлаар"), which
a reply's reading in Latin letters keeps as written, so that its correction holds ("Київ, ой,
то есть Харків." ends on Kharkiv read either way)."""
