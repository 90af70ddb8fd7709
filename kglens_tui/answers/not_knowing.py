"""Rules 38: the phrases by which a speaker says they cannot answer, per language.

The table is built by one rule: for each language, the phrases a bilingual dictionary gives for
"I don't know", "no idea", "I can't answer that" (with the idioms it gives for them, German "da
muss ich passen", English "you've got me there") and "I'm not sure", written as the language
writes them, for the languages of the labelled sets and the most used languages of CLDR.
Phrases the older table holds already (`refusals._DONT_KNOW_WORDS`: "je ne sais pas", "keine
Ahnung", "не знаю", "わかりません") are not repeated. A reply that says such a phrase and names
no candidate is refused; one that names a candidate after it keeps the candidate's verdict,
hedged, as the English refusals do (`refusals.DONT_KNOW`, `refusals.knows_not`)."""

from __future__ import annotations

import re

_PHRASES: dict[str, tuple[str, ...]] = {
    "en": (
        "you've got me there",
        "you got me there",
        "you have me there",
        "search me",
        "I couldn't say",
        "I couldn't tell you",
        "I wouldn't know",
    ),
    "de": (
        "muss ich passen",
        "ich muss passen",
        "bin ich überfragt",
        "ich bin überfragt",
        "bin mir nicht sicher",
        "bin nicht sicher",
        "kann ich nicht beantworten",
        "keinen schimmer",
        "keinen blassen schimmer",
    ),
    "fr": (
        "je ne suis pas sûr",
        "je ne suis pas sûre",
        "je ne suis pas certain",
        "je ne suis pas certaine",
        "je ne peux pas répondre",
        "je ne peux pas me prononcer",
        "ne pas m'avancer",
        "je ne m'avance pas",
        "je sèche",
        "pas la moindre idée",
    ),
    "es": (
        "no estoy seguro",
        "no estoy segura",
        "no puedo responder",
        "no tengo la menor idea",
        "no tengo la más mínima idea",
    ),
    "pt": (
        "não tenho ideia",
        "não tenho certeza",
        "não estou certo",
        "não estou certa",
        "não posso responder",
        "não faço a mínima ideia",
        "sei lá",
    ),
    "it": (
        "non ho idea",
        "non sono sicuro",
        "non sono sicura",
        "non posso rispondere",
        "boh",
    ),
    "nl": (
        "geen flauw idee",
        "geen flauw benul",
        "geen benul",
        "ik ben niet zeker",
        "ik ben er niet zeker van",
        "kan ik niet zeggen",
    ),
    "cs": (
        "netuším",
        "nemám tušení",
        "nejsem si jistý",
        "nejsem si jistá",
        "nejsem si jist",
        "to vám neřeknu",
        "to ti neřeknu",
        "nedokážu říct",
    ),
    "pl": (
        "nie jestem pewien",
        "nie jestem pewna",
        "nie potrafię powiedzieć",
        "nie umiem powiedzieć",
        "nie umiem odpowiedzieć",
    ),
    "ru": (
        "не уверен",
        "не уверена",
        "не имею понятия",
        "без понятия",
        "не могу ответить",
    ),
    "uk": (
        "гадки не маю",
        "не маю уявлення",
        "не впевнений",
        "не впевнена",
        "не можу відповісти",
        "без поняття",
    ),
    "el": (
        "δεν έχω ιδέα",
        "ιδέα δεν έχω",
        "δεν είμαι σίγουρος",
        "δεν είμαι σίγουρη",
        "δεν μπορώ να απαντήσω",
    ),
    "tr": (
        "fikrim yok",
        "emin değilim",
        "cevap veremem",
        "yanıt veremem",
        "bilgim yok",
    ),
    "ar": (
        "لا علم لي",
        "ليس لدي فكرة",
        "ليست لدي فكرة",
        "لا فكرة لدي",
        "لست متأكدا",
        "لست متأكدًا",
        "لست متأكدة",
        "لا أعلم",
        "لا اعلم",
        "لا أستطيع الإجابة",
        "لا يمكنني الإجابة",
    ),
    "fa": (
        "اطلاعی ندارم",
        "ایده\u200cای ندارم",
        "ایده ای ندارم",
        "مطمئن نیستم",
        "خبر ندارم",
        "نمی\u200cتوانم بگویم",
    ),
    "hi": (
        "कोई अंदाज़ा नहीं",
        "कोई अंदाजा नहीं",
        "पक्का नहीं",
        "यकीन नहीं",
        "निश्चित नहीं",
        "नहीं कह सकता",
        "नहीं कह सकती",
    ),
    "bn": (
        "নিশ্চিত নই",
        "ধারণা নেই",
        "জানা নেই",
        "বলতে পারছি না",
        "বলতে পারব না",
        "বলতে পারবো না",
    ),
    "ur": (
        "پتا نہیں",
        "پتہ نہیں",
        "کوئی اندازہ نہیں",
        "یقین نہیں",
        "نہیں کہہ سکتا",
        "نہیں کہہ سکتی",
    ),
    "id": (
        "kurang tahu",
        "kurang pasti",
        "tidak bisa menjawab",
        "tidak dapat menjawab",
        "tak pasti",
        "mana saya tahu",
    ),
    "vi": (
        "không rõ",
        "không chắc",
        "chịu thôi",
        "không trả lời được",
    ),
    "sw": (
        "sina uhakika",
        "sina wazo",
        "siwezi kujibu",
    ),
    "th": (
        "ไม่แน่ใจ",
        "ตอบไม่ได้",
    ),
    "ja": (
        "分かりかね",
        "わかりかね",
        "見当もつかない",
        "見当がつかない",
        "見当もつきません",
        "見当がつきません",
        "答えられません",
        "確かではありません",
        "存じません",
        "存じ上げません",
    ),
    "ko": (
        "잘 모르",
        "확실하지 않",
        "답할 수 없",
        "대답할 수 없",
        "글쎄요",
    ),
    "zh": (
        "答不上来",
        "答不上來",
        "答不出来",
        "答不出來",
        "说不上来",
        "說不上來",
        "不晓得",
        "不曉得",
        "无法回答",
        "無法回答",
        "回答不了",
        "没有头绪",
        "沒有頭緒",
    ),
    "yue": (
        "唔知",
        "唔清楚",
        "唔肯定",
        "冇概念",
        "冇頭緒",
        "答唔到",
    ),
}
"""Per language (ISO 639), the phrases of not knowing and not being able to say."""

_UNSPACED = frozenset({"th", "ja", "ko", "zh", "yue"})
"""Languages whose phrases stand inside longer words (no spaces, or endings joined on): read
without word boundaries."""


def _pattern(language: str, phrase: str) -> str:
    """A phrase as a pattern: any space between its words, either apostrophe; within word
    boundaries where its language has them and its ends are letters."""
    body = r"\s+".join(re.escape(w).replace("'", "['\u2019]") for w in phrase.split())
    if language in _UNSPACED:
        return body
    start = r"(?<!\w)" if phrase[0].isalnum() else ""
    end = r"(?!\w)" if phrase[-1].isalnum() else ""
    return f"{start}{body}{end}"


PATTERN = "|".join(
    _pattern(language, phrase) for language, phrases in _PHRASES.items() for phrase in phrases
)
"""Every phrase of `_PHRASES`, as one alternation (`refusals.DONT_KNOW` takes it in)."""
