"""Rules 38: titles in other languages before a person's name ("El rey Felipe.", "Kanzler
Merz."), read as the English titles of `kglens_tui.kg.answer_names.TITLES`.

The table is built by one rule: for the titles of heads of state and government of `TITLES`
(king, queen, president, prime minister, chancellor, emperor, prince, princess, grand duke,
emir, sultan), the words a bilingual dictionary gives for them in German, French, Spanish,
Portuguese, Italian, Dutch, the Scandinavian languages, Polish, Czech and Turkish, in the Latin
script; a title reads as the English one only right before a capitalised word, an article before
it dropped."""

from __future__ import annotations

import re

_TITLES: dict[str, tuple[str, ...]] = {
    "King": ("könig", "roi", "rey", "rei", "re", "koning", "kung", "konge", "król", "král", "kral"),
    "Queen": ("königin", "reine", "reina", "rainha", "regina", "koningin", "drottning",
              "dronning", "królowa", "královna", "kraliçe"),
    "President": ("präsident", "präsidentin", "président", "présidente", "presidente",
                  "presidenten", "prezydent", "prezident", "cumhurbaşkanı"),
    "Prime Minister": ("premierminister", "premierministerin", "premier ministre",
                       "primer ministro", "primera ministra", "primeiro-ministro",
                       "primeira-ministra", "primo ministro", "minister-president",
                       "statsminister", "statsministeren", "premiér", "başbakan"),
    "Chancellor": ("kanzler", "kanzlerin", "bundeskanzler", "bundeskanzlerin", "chancelier",
                   "canciller", "chanceler", "cancelliere", "kanselier", "kanclerz", "kancléř",
                   "şansölye"),
    "Emperor": ("kaiser", "empereur", "emperador", "imperador", "imperatore", "keizer",
                "kejsare", "kejser", "cesarz", "císař", "imparator"),
    "Prince": ("prinz", "fürst", "príncipe", "principe", "prins", "książę", "kníže",
               "princ", "prens"),
    "Princess": ("prinzessin", "princesse", "princesa", "principessa", "prinses", "prinsessa",
                 "prinsesse", "księżniczka", "princezna"),
    "Grand Duke": ("großherzog", "grand-duc", "gran duque", "grão-duque", "granduca",
                   "groothertog", "storhertig", "wielki książę", "velkovévoda"),
    "Emir": ("emiro", "émir"),
    "Sultan": ("sultán", "sultano", "sultão", "sułtan"),
}  # fmt: skip
"""Per English title, its words in other languages (lower case; the English ones are in
`TITLES`)."""

_ARTICLES = ("el", "la", "le", "il", "lo", "o", "a", "der", "die", "de", "het", "den")
"""Articles a title may follow ("El rey", "Der Kanzler", "De koning")."""

_WORDS = sorted(
    ((word, english) for english, words in _TITLES.items() for word in words),
    key=lambda pair: -len(pair[0]),
)
_ENGLISH = {word: english for word, english in _WORDS}
_TITLE = re.compile(
    r"(?<![\w'])(?:(?:" + "|".join(_ARTICLES) + r")\s+)?"
    r"(?P<title>" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w, _ in _WORDS) + r")"
    r"\s+(?=(?P<next>\w))",
    re.IGNORECASE,
)


def title_reading(reply: str) -> str | None:
    """The reply with a title of another language before a capitalised word written as the
    English title ("El rey Felipe." is "King Felipe."), or None where it has none."""
    found = False

    def english(match: re.Match[str]) -> str:
        nonlocal found
        if not match["next"].isupper():
            return match[0]
        found = True
        return f"{_ENGLISH[' '.join(match['title'].lower().split())]} "

    read = _TITLE.sub(english, reply)
    return read if found else None
