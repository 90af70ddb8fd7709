"""Names in scripts written without spaces (Han, kana, Hangul, Thai) are found inside a run of
letters, and words of inflecting alphabets (Cyrillic, Greek, Georgian, Armenian) are matched
without their endings (issue #34: a right answer in another language or script)."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import tokenize
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names

C, W = Verdict.CORRECT, Verdict.INCORRECT


def _check(reply: str, key: str, label: str, *, subject: tuple[str, ...] = ()) -> Verdict:
    return check_wh(
        reply, [[label]], subject=subject, answer_only=[answer_names(key, label)]
    ).verdict


@pytest.mark.parametrize(
    ("reply", "key", "label", "want"),
    [
        ("中国的首都是北京。", "city:beijing-chn", "Beijing", C),
        ("中国的首都是上海。", "city:beijing-chn", "Beijing", W),
        ("대한민국의 수도는 서울입니다.", "city:seoul-kor", "Seoul", C),
        ("대한민국의 수도는 부산입니다.", "city:seoul-kor", "Seoul", W),
        ("เมืองหลวงของประเทศไทยคือกรุงเทพมหานคร", "city:bangkok-tha", "Bangkok", C),
        ("タイの首都はバンコクです。", "city:bangkok-tha", "Bangkok", C),
        ("საქართველოს დედაქალაქი თბილისია.", "city:tbilisi-geo", "Tbilisi", C),
        ("Столица России — Москва.", "city:moscow-rus", "Moscow", C),
        ("Я живу в Москве.", "city:moscow-rus", "Moscow", C),  # locative: the same word
        ("Столица России — Санкт-Петербург.", "city:moscow-rus", "Moscow", W),
    ],
)
def test_names_in_other_scripts(reply: str, key: str, label: str, want: Verdict) -> None:
    assert _check(reply, key, label) == want


def test_unspaced_letters_are_tokens_of_their_own() -> None:
    assert [t.norm for t in tokenize("首都是北京。")] == ["首", "都", "是", "北", "京"]
    # a Latin word beside them stays whole; 。 ends the sentence
    toks = tokenize("北京Beijing。Paris")
    assert [t.norm for t in toks] == ["北", "京", "beijing", "paris"]
    assert toks[-1].sentence == toks[0].sentence + 1


def test_inflected_words_lose_their_endings_only() -> None:
    norms = [t.norm for t in tokenize("Москва Москвы Москве")]
    assert len(set(norms)) == 1
    assert [t.norm for t in tokenize("Рим")] == ["рим"]  # too short to cut
    assert [t.norm for t in tokenize("Moskva Moskve")] == ["moskva", "moskve"]  # Latin: as written
