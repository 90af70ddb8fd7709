"""Refusals and hedges: replies that decline to answer ("I don't know", in many languages),
that guess, or that ask a guess back."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import get_close_matches

from kglens_tui.answers import not_knowing
from kglens_tui.answers.mentions import Token, clean_quotes, has_hedge, tokenize
from kglens_tui.answers.words import NAME_NEIGHBOURS, SENTENCES, SPEAKER, split_clauses

_REFUSAL_PATTERNS = [
    r"\bi(?:'m| am)\s+(?:so\s+|very\s+)?sorry\b",
    r"^sorry\b",
    r"\bapologi[sz]e\b",
    r"\bas an ai\b",
    r"\bas a (?:large )?language model\b",
    r"\bi (?:do not|don't|dont) know\b",
    r"\bno idea\b",
    r"\bidk\b",
    r"\bi (?:do not|don't) have (?:any |enough |specific |real-time |access )",
    r"\bi (?:cannot|can't|can not)\b",
    r"\bi(?:'m| am) (?:unable|not able) to\b",
    r"\bi(?:'m| am) not (?:sure|certain|aware)\b",
    r"\bi(?:'m| am) (?:unsure|uncertain)\b",
    r"\bi(?:'m| am) (?:blanking|drawing a blank)\b",
    r"\bi (?:could not|couldn't|could n't|was unable to) find\b",
    r"\bunable to (?:find|provide|determine|answer|verify|confirm)\b",
    r"\bno (?:reliable |available |specific |public |known )?information "
    r"(?:is )?(?:available|about|on|regarding)\b",
    r"\bthere is no (?:known |public |available |reliable )?(?:information|record|data)\b",
    r"\bnot (?:enough|sufficient) information\b",
    r"\b(?:my )?knowledge cut-?off\b",
    r"\bi (?:do not|don't) have the capability\b",
    r"\bi(?:'m| am) (?:just )?an ai\b",
    r"^(?:unknown|n/?a)\.?$",
]


_REFUSAL = re.compile(f"(?=[isanutmk])(?:{'|'.join(_REFUSAL_PATTERNS)})", re.IGNORECASE)
"""Every pattern starts with one of the letters of the lookahead, which lets the search skip
the other positions at once (three times faster, the same matches)."""


_REFUSAL_WINDOW = 240


def is_refusal(text: str) -> bool:
    """Whether a reply declines to answer ("I'm sorry, but I couldn't find...", "As an AI...")."""
    head = clean_quotes(text.strip())[:_REFUSAL_WINDOW]
    return bool(head) and _REFUSAL.search(head) is not None


def guesses(reply: str) -> bool:
    """Whether a clause that does not refuse offers a guess ("..., but I think it's X"; not
    "..., as my information may be out of date"; rules 9: nor one that a later clause of its
    sentence declines, "I'd probably get it wrong, so I'll abstain")."""
    for sentence in SENTENCES.split(reply):
        clauses = split_clauses(sentence)
        for i, clause in enumerate(clauses):
            if (
                has_hedge(clause)
                and not is_refusal(clause)
                and not declines_by_meaning(clause)
                and not any(is_refusal(c) or declines_by_meaning(c) for c in clauses[i + 1 :])
            ):
                return True
    return (
        _NAMED_GUESS.search(reply) is not None
        or _NAMED_AFTER_BUT.search(reply) is not None
        or _NAMED_LAST.search(reply) is not None
    )


_NAMED_LAST = re.compile(
    r"[.!?]\s+(?:(?!\bnot\b|n't\b|\bnever\b|\bno\b)[^.!?\n])*?\b(?:is|was)\s+"
    r"(?-i:(?!(?:I|It|He|She|They|We|You|That|This|The|Not|No|Unknown)\b)[A-Z][\w'-]+"
    r"(?:\s+[A-Z][\w'-]+){0,3})\s*[.!]?\s*$",
    re.IGNORECASE,
)
"""Rules 32: a last sentence after another that says the answer is or was a capitalised name
("I don't have real-time information. The last president I know of is Andrzej Duda."): a
guess that names a candidate after the caveat; not where it denies."""


_UNKNOWN_THEN = re.compile(r"^\W*unknown\s*[\u2014\u2013,;:-]+\s*(?P<rest>\w.*)$", re.IGNORECASE)


def unknown_as_claim(text: str) -> bool:
    """Rules 32: whether "Unknown" opens a reply whose next clause tells about the world, not
    the speaker: no word of the speaker or of knowing and answering (`_ABOUT_ANSWERING`), no
    refusal ("Unknown — it has been known since antiquity." says no one is known to have done
    it: a claim; "Unknown — I don't have that information." declines)."""
    said = _UNKNOWN_THEN.match(clean_quotes(text).strip())
    if said is None:
        return False
    rest = said["rest"]
    words = [w.replace("'", "") for w in re.findall(r"[a-z][a-z'-]*", rest.casefold())]
    return not (
        any(w in SPEAKER or _ABOUT_ANSWERING.match(w) for w in words)
        or is_refusal(rest)
        or declines(rest)
    )


_NAMED_AFTER_BUT = re.compile(
    r"\bbut\b(?:(?!\bnot\b|n't\b|\bnever\b)[^.!?;])*?\b(?:it|he|she|they|that)(?:\s+(?:was|is|were|would\s+be)|'s)\s+"
    r"(?-i:(?!(?:I|It|He|She|They|We|You|That|This|The|Not|No)\b)[A-Z])",
    re.IGNORECASE,
)
"""Rules 30: a caveat's "but" and a clause that says the answer is or was a capitalised name
("As an AI I don't have real-time data, but as of my last update it was Olaf Scholz."): a guess
that names a candidate, however the reply hedged before it; not where the clause denies ("but
I don't think it's Lomé")."""


_CHOOSING = re.compile(r"\b(?:between|among|amongst)\b", re.IGNORECASE)


def declines_to_choose(tokens: Sequence[Token], named: Sequence[tuple[int, int]]) -> bool:
    """Rules 30: whether the reply is one sentence that declines (`declines_by_meaning`) and
    names its candidates (``named``: their spans) only after "between" or "among" in it ("I
    won't guess between Dodoma and Dar es Salaam."): it holds back the choice, naming no
    answer."""
    if not named or any(t.sentence != tokens[0].sentence for t in tokens):
        return False
    text = " ".join(t.raw for t in tokens)
    if not declines_by_meaning(text) or guesses(text):
        return False
    at = next((k for k, t in enumerate(tokens) if _CHOOSING.fullmatch(t.raw)), None)
    return at is not None and all(start > at for start, _ in named)


_NAMED_GUESS = re.compile(
    r"\b(?:possibly|maybe|perhaps|probably|likely)\s+(?:it's\s+|it\s+is\s+)?"
    r"(?-i:(?!(?:I|It|He|She|They|We|You|That|This|The|Not|No)\b)[A-Z])",
    re.IGNORECASE,
)
"""Rules 20: a word of guessing right before a capitalised word ("I'm not certain — possibly
Wavel Ramkalawan, but don't rely on that."): a guess that names a candidate, whatever doubt or
caveat stands around it."""


_ASKED_BACK = re.compile(r"[^.!?\n]*\?")


def asks_a_guess(text: str, asked: Sequence[Token]) -> bool:
    """Whether a sentence put as a question offers a candidate (rules 10: "Not sure. Could it
    be Sydney?", "Not sure. 1870-something?"): a number, or a name no table knows inside the
    question (`offers_a_name`; not "¿Dónde?"); a refusal that asks one guesses."""
    for m in _ASKED_BACK.finditer(clean_quotes(text)):
        part = m.group(0)
        if any(c.isdigit() for c in part):
            return True
        if offers_a_name(tokenize(part), asked):
            return True
    return False


def offers_a_name(tokens: Sequence[Token], asked: Sequence[Token]) -> bool:
    """Whether a reply names something no table knows, as a candidate: a capitalised word (not
    all capitals: "AI", "UTC") inside a sentence, not the question's ("I'll hold off, though
    Sydney comes to mind.", "I'm afraid it's Sydney."); rules 36: nor one of a source the reply
    sends the reader to (`_consulted`: "You may want to consult the CIA World Factbook.")."""
    question = {t.norm for t in asked}
    for i, tok in enumerate(tokens):
        if not tok.word or i == 0 or tokens[i - 1].sentence != tok.sentence:
            continue
        if _consulted(tokens, i):
            continue
        raw = tok.raw
        titled = raw[:1].isupper() and any(c.islower() for c in raw[1:])
        if titled and tok.norm not in question and tok.norm not in NAME_NEIGHBOURS:
            return True
    return False


_CONSULTING = frozenset({"consult", "consulting", "check", "checking", "visit", "visiting"})
"""Rules 36: verbs that send the reader to a source ("consult the CIA World Factbook", "I'd
suggest checking the Nepali government's official website")."""


def _consulted(tokens: Sequence[Token], i: int) -> bool:
    """Rules 36: whether the token at ``i`` follows, in its clause, a verb of `_CONSULTING`:
    part of the source the reply sends the reader to, no candidate."""
    k = i - 1
    while k >= 0 and tokens[k].clause == tokens[i].clause:
        if tokens[k].norm in _CONSULTING:
            return True
        k -= 1
    return False


def doubted(tokens: Sequence[Token], at: int) -> bool:
    """Rules 20: whether the sentence at ``at`` says, before "whether" or "if", that the speaker
    is not sure or does not know ("Update: I'm not certain whether Keir Starmer took over."):
    what it names after is wondered about, not given."""
    sentence = [t for t in tokens if t.sentence == tokens[at].sentence]
    words = [t.norm for t in sentence]
    at_word = next((k for k in range(len(words)) if k and words[k] in ("whether", "if")), None)
    if at_word is None:
        return False
    said = " ".join(t.raw for t in sentence[:at_word])
    return NOT_SURE.search(said) is not None or NOT_KNOWING.search(said) is not None


NOT_SURE = re.compile(r"\bi(?:'m|’m|\s+am)\s+(?:\w+\s+)?not\s+(?:sure|certain)\b", re.IGNORECASE)
"""The speaker saying they are not sure (of what follows)."""


GENERIC_OBJECT = frozenset(
    {"the", "a", "an", "it", "that", "this", "one", "answer", "current", "actual", "right",
     "correct", "real", "present", "new", "now", "today", "anymore", "either", "for", "sure",
     "honestly", "really"}
)  # fmt: skip
"""Words after a verb of not knowing that give it no object of its own ("I don't know the
current one"; not "I don't know its population")."""


_SHORT_REFUSAL_WORDS = 4


def bare_not_knowing(rest: str, asked: frozenset[str]) -> bool:
    """Rules 19: whether what follows a denial says the speaker does not know the answer itself:
    a sentence whose "I don't know" (or cannot say, tell, recall) has no object but the
    question's own words and generic ones ("I honestly don't know the current one."), or a short
    refusal ("No idea."); not "I don't know its population offhand" or "I can't imagine it
    moving", which say nothing against the answer given."""
    if len(rest.split()) <= _SHORT_REFUSAL_WORDS and (is_refusal(rest) or knows_not(rest)):
        return True
    unsure = NOT_SURE.search(rest)
    if unsure is not None:  # rules 30: "I'm not certain, so I won't guess."
        then = _SO_THEN.match(rest[unsure.end() :])
        if then is not None and declines_by_meaning(rest[unsure.end() + then.end() :]):
            return True
    for clause in split_clauses(without_regret(rest)):  # rules 32: "ich weiß es nicht sicher"
        known = DONT_KNOW.search(clause)
        if known is not None and all(
            w in GENERIC_OBJECT or _unaccented(w) in _SURE
            for w in re.findall(r"\w+", clause[known.end() :].casefold())
        ):
            return True
    for sentence in re.split(r"[.!?;\n]+", rest):
        found = NOT_KNOWING.search(sentence)
        if found is None:
            continue
        after = re.findall(r"\w+", sentence[found.end() :].casefold())
        if all(w in GENERIC_OBJECT or w in asked for w in after) or _asked_again(after, asked):
            return True
    return False


_SURE = frozenset(
    {"sicher", "genau", "zeker", "precies", "seguro", "segura", "sur", "sure", "certo", "certa",
     "pewno", "jiste", "saker", "sikkert", "varmasti", "kindlalt", "tiksliai", "kesin",
     "chac", "pasti", "yakin", "uverenno", "tochno"}
)  # fmt: skip
"""Rules 32: "for sure" in the languages of `DONT_KNOW`, as a word after not knowing ("ich
weiß es nicht sicher", "no lo sé seguro", "je ne sais pas sûr"), unaccented: no object of its
own."""


def _unaccented(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


_GIVING_UP_THEN = re.compile(r"\s*[,;]?\s*\b(?:so|and|therefore|hence|thus)\s+", re.IGNORECASE)


def gives_up(rest: str) -> bool:
    """Rules 32: whether a text says the speaker cannot say or is not sure, with no object of
    its own (`GENERIC_OBJECT`: "anymore", "honestly"), then "so" (or "and", "therefore") and a
    clause that declines ("I honestly can't remember anymore, so I'll leave it."): what was
    named before it is given up."""
    for said in (NOT_KNOWING.search(rest), NOT_SURE.search(rest)):
        if said is None:
            continue
        after = rest[said.end() :]
        then = _GIVING_UP_THEN.search(after)
        if then is None:
            continue
        words = re.findall(r"\w+", after[: then.start()].casefold())
        if all(w in GENERIC_OBJECT for w in words) and declines_by_meaning(after[then.end() :]):
            return True
    return False


_SO_THEN = re.compile(r"\s*[,;]?\s*(?:so|and|therefore|hence|thus)\s+", re.IGNORECASE)
"""Rules 30: the words by which a clause that declines follows "I'm not sure" ("I'm not
certain, so I won't guess."; not "I'm not sure who isolated it first")."""


_WH = frozenset({"who", "what", "which", "where", "when"})
_ASKED_AGAIN_MAX_WORDS = 4


def _asked_again(after: Sequence[str], asked: frozenset[str]) -> bool:
    """Rules 30: whether the object of "I don't know" is the question put again in a few words:
    a wh-word, then only generic words, the question's, verbs of being and verbs in the third
    person ("who holds it now", "what it is"): no word of anything else."""
    return (
        bool(after)
        and after[0] in _WH
        and len(after) <= _ASKED_AGAIN_MAX_WORDS + 1
        and all(
            w in GENERIC_OBJECT or w in asked or w in ("is", "was", "are") or w.endswith("s")
            for w in after[1:]
        )
    )


NOT_KNOWING = re.compile(
    r"\bi\s+(?:\w+\s+)?(?:do\s+not|don't|dont|cannot|can't|cant)\s+(?:\w+\s+)?"
    r"(?:know|say|tell|recall|remember)\b",
    re.IGNORECASE,
)
"""The speaker saying they do not know or cannot say, an adverb maybe inside ("I honestly don't
know")."""


_DECLINES = re.compile(
    r"(?=[iadtuwbnchesl])(?:"  # the first letters of the alternatives: a fast search (`_REFUSAL`)
    r"\b(?:information|answer|data|details|it|this|that)\s+(?:is|are|was|remains)\s+"
    r"(?:not|n't|never)\s+(?:\w+\s+){0,2}?(?:available|known(?!\s+(?:to|as|for)\b)|certain|"
    r"clear|public|disclosed|recorded|documented|determined|specified)\b|"
    r"\b(?:unknown|unclear|undetermined|undisclosed|unavailable)\b|"
    r"\b(?:i|we)\s+(?:lack|have\s+no)\s+(?:the\s+|any\s+|enough\s+)?(?:information|data|"
    r"knowledge|details|access)\b|\bbeyond\s+(?:my|what\s+i)\b|"
    r"\bno\s+way\s+(?:for\s+me\s+)?to\s+(?:know|tell|say)\b|"
    r"\b(?:cannot|can't|could\s*not|couldn't)\s+be\s+(?:determined|answered|found|confirmed|"
    r"verified|known|said)\b|\bi'?m\s+afraid\b|\b(?:would|will)\s+(?:need|have)\s+to\s+"
    r"(?:check|look)\b|\bhard\s+to\s+say\b|\bnot\s+something\s+i\b|"
    r"\b(?:escapes|eludes|stumps|beats)\s+me\b|\bstumped\b|"
    r"\bsit\s+(?:this|that)(?:\s+one)?\s+out\b|\bleave\s+it\s+(?:there|at\s+that)\b|"
    r"\bcan(?:'?t|not)\s+place\s+(?:it|that|this|them)\b|"
    r"\b(?:not|haven'?t|have\s+not|hasn'?t)\s+(?:got\s+)?(?:the\s+|a\s+)?(?:faintest|foggiest|"
    r"slightest|remotest)\b|\b(?:no|not\s+a|haven'?t\s+(?:got\s+)?a)\s+clue\b|"
    r"\b(?:be|been|am|i'?m)\s+(?:just\s+|only\s+|simply\s+)?(?:making\s+(?:it|that|this|one|"
    r"something|things)\s+up|making\s+up|inventing|fabricating)\b)|"
    r"^\W*no\s+(?:\w+\s+)?(?:information|data|records?|answer)\W*$",
    re.IGNORECASE,
)
"""Words that decline where the reply names no candidate (rules 17: the speaker would be
making an answer up, "I'd be making it up.", "I'd only be inventing one")."""


_DONT_KNOW_WORDS = {
    "French": r"je\s+ne\s+(?:le\s+)?sais\s+pas|je\s+ne\s+saurais\s+(?:pas\s+)?(?:vous\s+|te\s+)?(?:le\s+)?dire|"
    r"je\s+l'ignore|je\s+n'en\s+sais\s+rien|aucune\s+id[ée]e",
    "Spanish": r"(?:yo\s+)?no\s+(?:lo\s+)?s[ée]|no\s+sabr[íi]a(?:\s+decir(?:lo)?)?|no\s+tengo\s+(?:ni\s+)?idea|"
    r"ni\s+idea|lo\s+siento|desconozco",
    "Portuguese": r"(?:eu\s+)?n[ãa]o\s+(?:o\s+)?sei|n[ãa]o\s+saberia(?:\s+dizer)?|n[ãa]o\s+fa[çc]o\s+ideia|"
    r"desconhe[çc]o",
    "Italian": r"(?:io\s+)?non\s+(?:lo\s+)?so|non\s+saprei(?:\s+dir(?:e|lo))?|non\s+ne\s+ho\s+idea",
    "German": r"(?:ich\s+)?wei(?:ß|ss)\s+(?:es\s+|das\s+)?(?:leider\s+)?nicht|"
    r"(?:das\s+|es\s+)?wei(?:ß|ss)\s+ich\s+(?:es\s+|das\s+)?(?:leider\s+)?nicht|keine\s+ahnung|"
    r"(?:das\s+|es\s+)?kann\s+ich\s+(?:leider\s+)?nicht\s+sagen",
    "Dutch": r"(?:ik\s+)?weet\s+(?:het\s+)?niet|(?:dat\s+)?weet\s+ik\s+niet|geen\s+idee",
    "Scandinavian": r"(?:jag\s+)?vet\s+(?:det\s+)?(?:tyvärr\s+)?inte|(?:det\s+)?vet\s+jag\s+(?:tyvärr\s+)?inte|"
    r"ingen\s+(?:aning|anelse)|(?:jeg\s+)?(?:ved|vet)\s+(?:det\s+)?(?:desværre\s+|dessverre\s+)?ikke|"
    r"(?:det\s+)?(?:ved|vet)\s+jeg\s+(?:desværre\s+|dessverre\s+)?ikke",
    "Finnish, Hungarian, Romanian": r"(?:min[äa]\s+|sit[äa]\s+)?en\s+tied[äa]|ei\s+(?:mit[äa][äa]n\s+)?aavistustakaan|"
    r"(?:[ée]n\s+|ezt\s+|azt\s+)?nem\s+tudom|fogalmam\s+sincs|(?:eu\s+)?nu\s+[șşs]tiu|habar\s+n-am|n-am\s+habar|"
    r"nu\s+am\s+(?:nicio\s+)?idee",
    "Polish, Czech, Slovak": r"(?:ja\s+|tego\s+|to\s+)?nie\s+wiem|nie\s+mam\s+poj[ęe]cia|"
    r"(?:to\s+|já\s+|ja\s+)?(?:nev[íi]m|neviem)|"
    r"nem[áa]m\s+(?:pon[ěe]t[íi]|tu[šs]en[íi]e|ani\s+pon[ěe]t[íi])",
    "Turkish": r"(?:ben\s+|bunu\s+)?bilmiyorum|bilemiyorum|bilemem|hi[çc]\s*bir\s+fikrim\s+yok",
    "Vietnamese, Indonesian, Malay": r"(?:t[ôo]i\s+)?kh[ôo]ng\s+bi[ếe]t|"
    r"(?:saya\s+|aku\s+)?(?:tidak|tak|nggak|gak)\s+(?:tahu|pasti|yakin)|entahlah",
    "Swahili, Tagalog": r"(?:mimi\s+)?sijui|hindi\s+ko\s+alam",
    "Slavic in Cyrillic": r"не\s+знаю|не\s+знам|не\s+(?:могу|можу)\s+(?:сказать|сказати)|"
    r"понятия\s+не\s+имею|не\s+відомо|затрудняюсь\s+ответить",
    "Greek": r"δεν\s+(?:το\s+)?(?:ξέρω|ξερω|γνωρίζω|γνωριζω)",
    "Baltic": r"(?:aš\s+)?nežinau|(?:es\s+)?nezinu|(?:ma\s+|mina\s+)?ei\s+tea",
    "South Slavic in Latin script": r"(?:ja\s+)?ne\s+znam|(?:jaz\s+)?ne\s+vem|nemam\s+(?:pojma|ideju)",
    "Catalan, Galician, Basque": r"no\s+ho\s+s[ée]|non\s+(?:o\s+)?sei|ez\s+dakit",
    "Icelandic": r"(?:ég\s+)?veit\s+(?:það\s+)?(?:ekki|ég\s+(?:það\s+)?ekki)|veit\s+ég\s+(?:það\s+)?ekki",
    "Albanian, Maltese, Esperanto": r"nuk\s+(?:e\s+)?di|ma\s+nafx|mi\s+ne\s+scias",
    "Welsh, Irish": r"(?:dwi|dw\s+i|rwy|dydw\s+i|dydy\s+i)\s+ddim\s+yn\s+gwybod|"
    r"níl\s+a\s+fhios\s+agam",
    "Afrikaans": r"(?:ek\s+)?weet\s+(?:dit\s+)?(?:ongelukkig\s+)?nie",
    "Latin (rules 21)": r"nescio|non\s+scio",
    "Turkic": r"bilmir[əe]m|bilmayman|білмеймін|билбейм",
    "Hausa, Zulu, Xhosa, Somali": r"ban\s+sani\s+ba|angazi|andazi|ma\s+(?:garanayo|aqaan)",
    "Belarusian, Mongolian, Tajik": r"не\s+ведаю|мэдэхгүй|намедонам",
    "Yoruba, Igbo (rules 22)": r"(?:e?mi)\s+(?:ò|o\u0300?|ko)\s+m(?:ọ|o\u0323?)|amagh[ịi]\s+m",
    "No information: French, German, Italian, Portuguese, Spanish, Polish": r"(?:je\s+)?n'ai\s+pas\s+"
    r"(?:(?:cette|d'|l')\s*)?informations?|(?:dazu\s+|darüber\s+)?(?:habe\s+ich|ich\s+habe)\s+"
    r"(?:dazu\s+|darüber\s+)?keine\s+(?:informationen|angaben|daten)|non\s+ho\s+(?:(?:questa|"
    r"nessuna)\s+|quest'|l')?informazion[ei]|n[ãa]o\s+tenho\s+(?:(?:essa|esta|a|nenhuma)\s+)?"
    r"informa[çc](?:[ãa]o|[õo]es)|no\s+tengo\s+(?:(?:esa|esta|la|ninguna)\s+)?informaci[óo]n|"
    r"nie\s+mam\s+(?:(?:tej|tych|żadnych|zadnych)\s+)?informacji",
}
"""Per language, saying one does not know or cannot say (rules 12: a small grammar of the
negation and the verb "know" or "say" in the languages with most speakers, written as rules, not
taken from replies; rules 13: "no idea" as the Nordic, Finnish, Hungarian, Romanian, Czech and
Slovak languages say it; rules 14: "I do not know" in the Baltic, South Slavic, Celtic, Turkic,
Indic, Ethiopic, Caucasian and South-East Asian languages and others, and an adverb of regret
inside the Nordic and German word orders; rules 18: the pronoun "that" before the Czech, Slovak,
Polish, Finnish, Hungarian and Turkish phrases, Hindi's "no information", and "I have no (this)
information" in French, German, Italian, Portuguese, Spanish and Polish; rules 19: Serbo-Croatian
"nemam pojma", Indonesian and Malay "tidak pasti", "tidak yakin"). These scripts have word
boundaries;
`_DONT_KNOW_UNSPACED`'s do not."""


_DONT_KNOW_UNSPACED = {
    "Arabic, Persian, Urdu": r"لا\s+(?:أعرف|اعرف|أدري|ادري)|نمی\u200c?\s?دانم|نہیں\s+(?:پتا|پتہ|معلوم)|"
    r"معلوم\s+نہیں",
    "Hebrew": r"לא\s+(?:יודע|יודעת)|אין\s+לי\s+מושג",
    "Hindi, Bengali": r"नहीं\s+(?:पता|मालूम|जानता|जानती)|(?:पता|मालूम|जानकारी)\s+नहीं|জানি\s+না",
    "Thai": r"ไม่(?:รู้|ทราบ)",
    "Georgian, Armenian": r"არ\s*ვიცი|չգիտեմ",
    "Indic and Sinhala": r"தெரியாது|తెలియదు|ಗೊತ್ತಿಲ್ಲ|(?:അ|ക്ക)റിയില്ല|माही(?:त|ती)\s+नाही|थाहा\s+छैन|"
    r"ખબર\s+નથી|ਪਤਾ\s+ਨਹੀਂ|දන්නේ\s+නැහැ|නොදනිමි",
    "Amharic": r"አላውቅም",
    "Burmese, Khmer, Lao": r"မသိ(?:ဘူး|ပါ)|មិន\s*ដឹង|ບໍ່\s*ຮູ້",
    "Japanese, Chinese, Korean": r"わかりません|分かりません|知りません|わからない|分からない|知らない|"
    r"不(?:太|大)?(?:知道|清楚|确定|確定|記得|记得)|모르겠|모릅니다",
}


DONT_KNOW = re.compile(
    rf"\b(?:{'|'.join(_DONT_KNOW_WORDS.values())})\b|"
    rf"(?:{'|'.join(_DONT_KNOW_UNSPACED.values())})|"
    r"\byour\s+guess\s+is\s+as\s+good\s+as\s+mine\b|"
    rf"{not_knowing.PATTERN}",
    re.IGNORECASE,
)
"""Saying one does not know in other languages than English ("Je ne sais pas.", "No lo sé.",
"Не знаю.", "わかりません", "Saya tidak tahu."), or by the idiom "your guess is as good as
mine"; rules 38: the phrases of `not_knowing`, "Da muss ich passen.", "Δεν έχω ιδέα.",
"唔知喎。"): a refusal where the reply names no candidate."""


_REGRET = re.compile(
    r"\b(?:sajnos|sajnálom|leider|desværre|dessverre|tyvärr|valitettavasti|niestety|bohužel|žiaľ|"
    r"lamentablemente|desafortunadamente|purtroppo|infelizmente|malheureusement|helaas|deja|"
    r"diemžēl|kahjuks|nažalost|žal|fatkeqësisht|maalesef|ne\s+yaz[ıi]k\s+ki|"
    r"к\s+сожалению|на\s+жаль|δυστυχώς|ho\s+sento|lo\s+siento|désolée?|mi\s+dispiace|"
    r"desculpe|entschuldigung|przepraszam|promiňte|bocsánat|því\s+miður|sorry|pardon|"
    r"prepáčte|ongelukkig|jammer|ngiyaxolisa|uxolo|barkatu|perd[óo]n|disculp[ae]|lo\s+lamento|"
    r"pardonnez-moi|es\s+tut\s+mir\s+leid|het\s+spijt\s+me|förlåt|beklager|undskyld|anteeksi|"
    r"przykro\s+mi|omlouvám\s+se|izvinite|izvini|oprostite|вибачте|извините|простите|συγγνώμη|"
    r"özür\s+dilerim|maaf|xin\s+lỗi|samahani|paumanhin|mae'n\s+ddrwg\s+gen\s+i|ma\s+dispiace)\b|"
    r"மன்னிக்கவும்|ക്ഷമിക്കണം|ይቅርታ|ბოდიში|ներողություն|क्षमा\s+करें|माफ़\s+कीजिए|ক্ষমা\s+করবেন|"
    r"ขอโทษ|معذرة|عذرا|متأسفم|סליחה|申し訳ありません|すみません|ごめんなさい|죄송합니다|미안합니다|"
    r"对不起|抱歉",
    re.IGNORECASE,
)
"""Words of regret that come with "I do not know" ("Sajnos", "Leider", "Lo siento",
"மன்னிக்கவும்"): no name beside a refusal (rules 14; rules 15: "sorry" in more languages)."""


def without_regret(text: str) -> str:
    """The text less its words of regret, which may stand inside a phrase of not knowing (rules
    18: Finnish "En valitettavasti tiedä", Czech "To bohužel nevím")."""
    return _REGRET.sub(" ", text)


def knows_not(text: str) -> bool:
    """Whether the text says it does not know in another language (`DONT_KNOW`), a word of
    regret inside the phrase or not (`without_regret`)."""
    return DONT_KNOW.search(text) is not None or (
        _REGRET.search(text) is not None and DONT_KNOW.search(without_regret(text)) is not None
    )


_CLAUSE_MARKS = re.compile(r"([,.;:!?\n\u3001\u3002\uff0c\uff01\uff1f])")


def without_not_knowing(text: str) -> str:
    """Rules 38: the text less every clause that says it does not know (`knows_not`): the words
    beside the phrase in its clause ("Da muss ich passen.", "Ich weiß es leider nicht.") are part
    of what it says, no name offered."""
    parts = _CLAUSE_MARKS.split(text)
    return "".join(" " if k % 2 == 0 and knows_not(p) else p for k, p in enumerate(parts))


def opens_not_knowing(text: str) -> bool:
    """Rules 38: whether the first clause of a text says it does not know (`knows_not`: "Keine
    Ahnung, vielleicht Zürich?", "No sé... ¿quizás Montevideo?"): a candidate named after it is
    hedged, as after "No idea"; not "Canberra. Nie wiem, ile ma mieszkańców." (not knowing
    something else)."""
    parts = _CLAUSE_MARKS.split(clean_quotes(text))
    first = next((p for p in parts[::2] if any(c.isalnum() for c in p)), "")
    return knows_not(first)


BLANK_MARK = re.compile(r"\s*[\u2014\u2013-]+\s*")
"""Rules 20: a reply that is only a dash: what a person writes for "I do not know" (a lone "?"
asks back: unparseable, as the bench labels it)."""


TRAILING_OFF = re.compile(r"\s*(?:\.{2,}|\u2026+)\s*")
"""Rules 25: a reply that is only an ellipsis: a speaker trailing off, which may decline or give
nothing to read (labelled sets differ); unparseable, uncertain."""


SHRUG = re.compile(r"¯\\?_\(ツ\)_/¯|\U0001F937[\U0001F3FB-\U0001F3FF\u200d\u2640\u2642\ufe0f]*")
"""A shrug (the emoticon, the emoji): "I do not know", when nothing else is said or what else
is said declines too ("🤷 Wollongong?" offers a name)."""


def declines(text: str) -> bool:
    """Whether a reply that names no candidate declines in other words than the usual refusals
    ("That information is not available to me.", "It is unknown.", "I lack the data."), in
    another language ("Je ne sais pas.": `DONT_KNOW`), by a shrug (`SHRUG`), or without any
    set words (`declines_by_meaning`)."""
    clean = clean_quotes(text)
    return (
        _DECLINES.search(clean) is not None
        or knows_not(clean)
        or declines_by_meaning(text)
        or (SHRUG.search(clean) is not None and _shrug_only(SHRUG.sub(" ", clean)))
    )


def _shrug_only(rest: str) -> bool:
    """Whether what a reply says beside a shrug declines too, or says nothing."""
    return not any(c.isalnum() for c in rest) or declines(rest)


_ABOUT_ANSWERING = re.compile(
    r"^(?:know(?:s|ing|ledge)?$|sure|certain|confiden|recall|remember|memory|mind|record|"
    r"information|info|data|detail|source|reference|atlas|encyclop|answer|repl|respon|say|"
    r"tell|provid|give|giving|nam|comment|speculat|guess|verif|confirm|check|look|consult|"
    r"side|opinion|position|stance|familiar|reliabl|accura|up-to-date|date|"
    r"help|pick|choos|risk|recogni|figure|map$|maps$)"
)
"""Words about knowing or answering (stems): "record", "answering", "naming", "reliably"; rules
9: "help", "pick", "choose", "risk", "recognise", "figures", "map"; not "known", which mostly
speaks of the world ("not known to exist in nature")."""


_DECLINE_MAX_WORDS = 20
"""A sentence that declines is short; a longer one without a candidate tells about something
else."""


_HOLDING_BACK = frozenset(
    {"not", "no", "never", "nothing", "none", "nobody", "without", "cannot", "cant", "wont",
     "dont", "doesnt", "couldnt", "wouldnt", "shouldnt", "unable", "lack", "lacking", "outside",
     "beyond", "out", "outdated", "hold", "refrain", "abstain", "avoid", "withhold", "leave", "rather", "prefer",
     "hazy", "fuzzy", "vague", "too", "best", "better", "should", "need", "have", "recommend",
     "suggest", "advise", "point", "refer", "only", "taking", "take", "unsure", "uncertain",
     "misleading"}
)  # fmt: skip
"""Words that hold an answer back: negation, limits ("outside", "beyond", "too hazy"),
withholding ("hold off", "rather", "refrain"), sending the reader elsewhere ("best checked",
"have to look", "consult"), taking no side; rules 9: "it would be misleading to name one"."""


_DECLINING = frozenset(
    {"unanswered", "unanswerable", "refrain", "abstain", "withhold", "blank", "pass", "skip",
     "stumped"}
)  # fmt: skip
"""Words that decline on their own ("leave it unanswered", "I'll pass", "I'll skip it",
"drawing a blank")."""


_PARTS = re.compile(r"\s*[;\u2014]\s*|\s[\u2013-]\s")


def _short_parts(sentences: Sequence[str]) -> list[str]:
    """Rules 36: the sentences, each too long for `declines_by_meaning` read as its parts
    between semicolons and dashes ("My knowledge may be outdated here, and I don't want to give
    you a wrong name — please check an official government source.")."""
    parts: list[str] = []
    for sentence in sentences:
        if len(re.findall(r"[a-z][a-z'-]*", sentence)) > _DECLINE_MAX_WORDS:
            parts.extend(_PARTS.split(sentence))
        else:
            parts.append(sentence)
    return parts


def declines_by_meaning(text: str) -> bool:
    """Whether some sentence of a reply declines by what it says, not by set phrases (issue
    #34's rule: a refusal is recognised without keywords where the reply offers no candidate):
    it speaks of knowing or answering (`_ABOUT_ANSWERING`: "record", "naming", "answering",
    "reliably", "checked") or of the speaker (`SPEAKER`) and holds the answer back (`_HOLDING_BACK`: a negation, "outside",
    "best", "hold off", "taking a side"), or uses a word that declines on its own
    (`_DECLINING`: "unanswered", "I'll pass", "drawing a blank"). "That's outside what I can
    reliably provide.", "No reliable record of that comes to mind.", "That's best checked in a
    specialised reference.", "Naming one would mean taking a side." decline; "It is a city in
    Australia." or "It is not Sydney." do not. The caller makes sure no candidate is offered."""
    for sentence in _short_parts(SENTENCES.split(clean_quotes(text).casefold())):
        words = [w.replace("'", "") for w in re.findall(r"[a-z][a-z'-]*", sentence)]
        if len(words) > _DECLINE_MAX_WORDS:
            continue
        if any(w in _DECLINING for w in words):
            return True
        below = any(
            w == "than" and nxt in SPEAKER for w, nxt in zip(words, words[1:], strict=False)
        )
        if (below or any(w in _HOLDING_BACK or w.endswith("nt") for w in words)) and any(
            _ABOUT_ANSWERING.match(w) or w in SPEAKER for w in words
        ):
            return True
    return False


_FOREIGN_MIN_WORDS, _FOREIGN_MAX_WORDS = 2, 6
"""How many words a sentence `an_unread_sentence` reads may have."""


def an_unread_sentence(
    tokens: Sequence[Token], answers: Sequence[Sequence[str]], english: frozenset[str]
) -> bool:
    """Rules 30: whether a reply that names no candidate is one short sentence in Latin letters
    of words the reading does not know: no number, nothing capitalised but its first word, no
    English word of ``english`` (the closed classes, `corrections.ENGLISH_FUNCTION_WORDS`; "i"
    only as "I") or adverb in "-ly", no word of CLDR's English names of places, languages and
    currencies, no hedge ("Ech weess et net.", "Tsy haiko.", "Kāore au i te mōhio."), asked
    for names (every true answer's name opens with a capital or a sign): such a reply names
    nothing that could answer, so it most likely says it does not know, in another language.
    The reading cannot tell which: it is refused, uncertain."""
    from kglens_tui.kg.answer_names import a_name_word_anywhere, english_name_words
    from kglens_tui.kg.name_folding import fold_name

    if not _FOREIGN_MIN_WORDS <= len(tokens) <= _FOREIGN_MAX_WORDS:
        return False
    if any(t.clause != tokens[0].clause for t in tokens):
        return False  # one clause: not "Genève, je crois."
    if not all(name[:1].isupper() and not _DIGIT.search(name) for g in answers for name in g):
        return False  # names, not numbers ("Dix-sept.") or offsets ("Bravo time.")
    names = english_name_words()
    for k, tok in enumerate(tokens):
        if not tok.word or not tok.raw.isalpha() or not tok.raw.isascii() and not _latin(tok.raw):
            return False
        if k and not tok.raw.islower():
            return False
        word = tok.raw.casefold()
        if (word in english and tok.raw != "i") or word.endswith("ly") or tok.norm in names:
            return False
        if len(tok.norm) >= _NEAR_MIN_CHARS and get_close_matches(tok.norm, names, 1, _NEAR):
            return False  # a name's near spelling ("Dólar estadounidense.")
        if a_name_word_anywhere(fold_name(tok.raw)):
            return False  # a word of a name in another language ("Guinée française.")
    return not has_hedge(" ".join(t.raw for t in tokens))


_DIGIT = re.compile(r"\d")


_NEAR, _NEAR_MIN_CHARS = 0.85, 4
"""How like a word of CLDR's English names a word of `an_unread_sentence` may not be
(`difflib`'s ratio), from how many letters."""


def _latin(word: str) -> bool:
    """Whether every letter of ``word`` is a Latin letter (accents allowed: "mōhio")."""
    return all("LATIN" in unicodedata.name(c, "") for c in word)
