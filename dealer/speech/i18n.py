"""The dealer's languages: English, Russian and Portuguese from gettext catalogs.

Every sentence the dealer says or prints goes through this module::

    from dealer.speech.i18n import _, n_
    voice.say(_("The rule is sealed."))
    voice.say(_("{who}, your turn.", who=player))
    voice.say(n_("{who} takes {n} card back.", "{who} takes {n} cards back.", n, who=player))

- ``_(msgid, **fields)`` translates, then fills ``{fields}`` (no fields: no formatting).
- ``n_(singular, plural, n, **fields)`` picks the plural form for ``n`` by the catalog's
  ``Plural-Forms`` (Russian has three: 1 карту, 2 карты, 5 карт, 21 карту) and fills
  ``{n}`` and the fields. ``{n}`` is a :class:`Count`: a translation may write
  ``{n:f}`` / ``{n:fa}`` (feminine nominative / accusative in words: "одна", "одну",
  "duas") so the synthesiser says the numeral that agrees with the noun.
- ``p_(context, msgid, **fields)`` is ``pgettext``: the same English word in two roles.
- ``N_(msgid)`` only marks a string for the catalogs (constants translated later by ``_``).
- :func:`card_name` says a card as the language does ("the queen of spades", "дама пик",
  "даму пик" as an object, "a dama de espadas").

The catalogs are standard gettext ``.po`` files, ``dealer/locale/<lang>/LC_MESSAGES/eleusis.po``,
compiled in memory at first use into the ``.mo`` form the standard library's
:class:`gettext.GNUTranslations` reads (no msgfmt needed at run time). ``python3 -m
dealer.speech.i18n_extract`` lists every message in the source and updates the catalogs; the
tests fail when a message lacks a translation.

>>> with use_language("ru"):
...     n_("{who} draws {n}.", "{who} draws {n}.", 21, who="Ана")
'Ана берёт двадцать одну штрафную карту.'
"""

from __future__ import annotations

import ast
import contextlib
import gettext
import io
import os
import re
import struct
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from engine.cards import Card, Suit

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Count",
    "Decimal",
    "Words",
    "N_",
    "_",
    "and_list",
    "capital",
    "card_name",
    "catalog_path",
    "espeak_voice",
    "language",
    "n_",
    "p_",
    "parse_po",
    "resolve_language",
    "set_language",
    "system_language",
    "use_language",
]

DOMAIN = "eleusis"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
LANGUAGES = ("en", "ru", "pt")  # en is the source language: its catalog is the msgids themselves
# espeak-ng voices (`espeak-ng --voices`): pyttsx3 takes the id, the espeak-ng command its last part.
_ESPEAK = {"en": "gmw/en", "ru": "zle/ru", "pt": "roa/pt"}

_current = "en"  # tests and library callers get English unless the command line says otherwise


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# -- choosing the language -------------------------------------------------------------------
def system_language(environ: dict[str, str] | None = None) -> str:
    """The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that names a language we speak,
    else English (``ru_RU.UTF-8`` -> ru, ``pt_BR`` -> pt, ``C.UTF-8`` -> en)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):  # LANGUAGE may list several, in order of preference
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            return "en"  # the first locale variable that is set decides (POSIX order)
    return "en"


def resolve_language(requested: str | None) -> str:
    """``--lang`` when given (checked), else the system locale, then English."""
    if requested is None:
        return system_language()
    code = requested.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}, got {requested!r}")
    return code


def set_language(lang: str) -> None:
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _current = lang


def language() -> str:
    return _current


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block (tests, and the review of a recording in its language)."""
    before = _current
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def espeak_voice(lang: str | None = None) -> str:
    """The espeak-ng voice for a language: gmw/en, zle/ru, roa/pt."""
    return _ESPEAK[lang or _current]


# -- the catalogs ---------------------------------------------------------------------------
class PoEntry:
    """One message of a .po file: ``msgstr`` holds one string, or one per plural form."""

    __slots__ = ("context", "flags", "msgid", "msgid_plural", "msgstr", "line")

    def __init__(self, line: int) -> None:
        self.context: str | None = None
        self.msgid = ""
        self.msgid_plural: str | None = None
        self.msgstr: list[str] = []
        self.flags: set[str] = set()
        self.line = line

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def _po_string(text: str, path: Path, line: int) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"{path}:{line}: not a quoted string: {text!r}") from exc
    if not isinstance(value, str):
        raise ValueError(f"{path}:{line}: not a quoted string: {text!r}")
    return value


def parse_po(path: Path) -> list[PoEntry]:
    """The entries of a .po file, the header (msgid "") first. Obsolete (#~) entries are skipped.

    Only what gettext writes is understood: comments, ``#,`` flags, msgctxt, msgid,
    msgid_plural, msgstr and msgstr[N], each followed by continuation strings.
    """
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    field: str | None = None
    flags: set[str] = set()

    def finish() -> None:
        nonlocal entry
        if entry is not None:
            entries.append(entry)
        entry = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if entry is not None and entry.msgstr:
                finish()
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        keyword, _sep, rest = line.partition(" ")
        if line.startswith('"'):
            if entry is None or field is None:
                raise ValueError(f"{path}:{number}: a string continues nothing")
            text = _po_string(line, path, number)
            if field == "msgctxt":
                entry.context = (entry.context or "") + text
            elif field == "msgid":
                entry.msgid += text
            elif field == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + text
            else:
                entry.msgstr[-1] += text
            continue
        if keyword == "msgctxt" or (keyword == "msgid" and (entry is None or entry.msgstr or field != "msgctxt")):
            finish()
            entry = PoEntry(number)
            entry.flags, flags = flags, set()
        if entry is None:
            raise ValueError(f"{path}:{number}: expected msgctxt or msgid, got {line!r}")
        text = _po_string(rest.strip(), path, number)
        if keyword == "msgctxt":
            entry.context, field = text, "msgctxt"
        elif keyword == "msgid":
            entry.msgid, field = text, "msgid"
        elif keyword == "msgid_plural":
            entry.msgid_plural, field = text, "msgid_plural"
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            if keyword.startswith("msgstr[") and keyword != f"msgstr[{len(entry.msgstr)}]":
                raise ValueError(f"{path}:{number}: {keyword} out of order")
            entry.msgstr.append(text)
            field = "msgstr"
        else:
            raise ValueError(f"{path}:{number}: unknown keyword {keyword!r}")
    finish()
    return entries


def _mo_bytes(entries: Iterable[PoEntry]) -> bytes:
    """The GNU .mo form of the translated, non-fuzzy entries (untranslated ones fall back
    to English at run time, as gettext does)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if "fuzzy" in e.flags and e.msgid:
            continue
        if e.msgid and not all(e.msgstr):
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        if e.context is not None:
            key = e.context + "\x04" + key
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    id_table, str_table = [], []
    offset = start
    for k in keys:
        id_table += [len(k), offset]
        offset += len(k) + 1
    for k in keys:
        str_table += [len(pairs[k]), offset]
        offset += len(pairs[k]) + 1
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return head + struct.pack(f"{len(id_table)}i", *id_table) + struct.pack(f"{len(str_table)}i", *str_table) + ids + strs


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    path = catalog_path(lang)
    return gettext.GNUTranslations(io.BytesIO(_mo_bytes(parse_po(path))))


# -- numbers that agree with their noun -----------------------------------------------------
_RU_UNITS = ("", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять")
_RU_TEENS = ("десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать",
             "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать")
_RU_TENS = ("", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят",
            "восемьдесят", "девяносто")
_RU_FEMININE = {"f": {1: "одна", 2: "две"}, "fa": {1: "одну", 2: "две"}, "n": {1: "одно", 2: "два"}}
_PT_UNITS = ("zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
             "onze", "doze", "treze", "catorze", "quinze", "dezasseis", "dezassete", "dezoito", "dezanove")
_PT_TENS = ("", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa")
_PT_FEMININE = {1: "uma", 2: "duas"}


_RU_GENITIVE_UNITS = ("", "одного", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти")
_RU_GENITIVE_TEENS = ("десяти", "одиннадцати", "двенадцати", "тринадцати", "четырнадцати", "пятнадцати",
                      "шестнадцати", "семнадцати", "восемнадцати", "девятнадцати")
_RU_GENITIVE_TENS = ("", "", "двадцати", "тридцати", "сорока", "пятидесяти", "шестидесяти", "семидесяти",
                     "восьмидесяти", "девяноста")


def _ru_words(n: int, spec: str) -> str:
    if spec in ("g", "fg"):
        return _ru_genitive(n, feminine=spec == "fg")
    if n == 0:
        return "ноль"
    if n >= 100 or n < 0:
        return str(n)
    if 10 <= n < 20:
        return _RU_TEENS[n - 10]
    tens, unit = divmod(n, 10)
    word = _RU_FEMININE.get(spec, {}).get(unit, _RU_UNITS[unit])
    return " ".join(w for w in (_RU_TENS[tens], word) if w)


def _ru_genitive(n: int, feminine: bool) -> str:
    """"из шести", "из одной": the numeral after a preposition that takes the genitive."""
    if n == 0:
        return "нуля"
    if n >= 100 or n < 0:
        return str(n)
    if 10 <= n < 20:
        return _RU_GENITIVE_TEENS[n - 10]
    tens, unit = divmod(n, 10)
    word = "одной" if feminine and unit == 1 else _RU_GENITIVE_UNITS[unit]
    return " ".join(w for w in (_RU_GENITIVE_TENS[tens], word) if w)


def _pt_words(n: int, spec: str) -> str:
    if n >= 100 or n < 0:
        return str(n)
    if n < 20:
        return _PT_FEMININE[n] if spec.startswith("f") and n in _PT_FEMININE else _PT_UNITS[n]
    tens, unit = divmod(n, 10)
    if unit == 0:
        return _PT_TENS[tens]
    word = _PT_FEMININE[unit] if spec.startswith("f") and unit in _PT_FEMININE else _PT_UNITS[unit]
    return f"{_PT_TENS[tens]} e {word}"


class Count(int):
    """A number in a sentence. ``{n}`` is its digits; in a translation ``{n:f}`` (feminine),
    ``{n:fa}`` (feminine accusative) and ``{n:n}`` (neuter) write it in words that agree with
    the noun, so the voice says "две карты" / "duas cartas", not "два карты" / "dois cartas";
    in Russian ``{n:g}`` and ``{n:fg}`` give the genitive ("из шести", "из одной")."""

    def __format__(self, spec: str) -> str:
        if spec in ("g", "fg") and _current != "ru":
            spec = "f" if spec == "fg" else ""
        if spec not in ("f", "fa", "n", "g", "fg"):
            return int.__format__(int(self), spec)
        if _current == "ru":
            return _ru_words(int(self), spec)
        if _current == "pt":
            return _pt_words(int(self), spec)
        return str(int(self))


# -- translating -------------------------------------------------------------------------------
class Words(str):
    """A text field of a sentence. A translation may write:

    - ``{field:lc}`` to begin it with a small letter where the sentence goes on after a
      colon ("Правило было такое: после красной карты ...");
    - ``{who:de}`` in Portuguese for "de" with the name's article, as Portugal says it
      ("Vez da Carla", "Vez do Bruno"): a name ending in -a is taken as a woman's.
    """

    def __format__(self, spec: str) -> str:
        if spec == "lc":
            return self[:1].lower() + self[1:]
        if spec == "de":
            return f"{'da' if self.lower().endswith('a') else 'do'} {self}"
        return str.__format__(str(self), spec)


class Decimal(float):
    """A number with a fraction, written with the language's decimal sign: 4.8 in English,
    4,8 in Russian and Portuguese. ``{fps}`` keeps the digits it was given."""

    def __new__(cls, value: float, text: str | None = None) -> Decimal:
        made = super().__new__(cls, value)
        made._text = text if text is not None else repr(float(value))
        return made

    _text: str

    def __format__(self, spec: str) -> str:
        text = float.__format__(float(self), spec) if spec else self._text
        return text.replace(".", ",") if _current in _DECIMAL_COMMA else text

    def __str__(self) -> str:
        return self.__format__("")


_DECIMAL_COMMA = ("ru", "pt")
_DECIMAL_TEXT = re.compile(r"-?\d+\.\d+")


def _field(value: Any) -> Any:
    """A sentence's field as the language writes it: a number with a fraction (a float, or
    the text "4.8" a caller formatted) with the decimal sign; any other text as Words."""
    if type(value) is float:
        return Decimal(value)
    if type(value) is str:
        if _DECIMAL_TEXT.fullmatch(value):
            return Decimal(float(value), value)
        return Words(value)
    return value


def _fill(text: str, english: str, fields: dict[str, Any]) -> str:
    """``text`` with its fields filled; a broken translation (a field the source does not
    give, a stray brace) falls back to the English rather than stop the dealer mid-round
    (tests/dealer/speech/test_i18n.py keeps the shipped catalogs free of such)."""
    if not fields:
        return text
    fields = {name: _field(value) for name, value in fields.items()}
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError, TypeError):  # TypeError: a spec on a field that is None
        return english.format(**fields)


def _(msgid: str, **fields: Any) -> str:
    """``msgid`` in the current language, with ``{fields}`` filled when any are given."""
    return _fill(_translations(_current).gettext(msgid), msgid, fields)


def n_(singular: str, plural: str, n: int, **fields: Any) -> str:
    """The plural form for ``n`` in the current language, ``{n}`` and the fields filled."""
    english = singular if n == 1 else plural
    return _fill(_translations(_current).ngettext(singular, plural, n), english, {"n": Count(n), **fields})


def p_(context: str, msgid: str, **fields: Any) -> str:
    """``msgid`` in the role ``context`` (pgettext), fields filled when given."""
    return _fill(_translations(_current).pgettext(context, msgid), msgid, fields)


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalogs without translating it now."""
    return msgid


# -- cards as words ---------------------------------------------------------------------------
_RANKS = {1: "the ace", 2: "the two", 3: "the three", 4: "the four", 5: "the five", 6: "the six",
          7: "the seven", 8: "the eight", 9: "the nine", 10: "the ten", 11: "the jack", 12: "the queen",
          13: "the king"}
_SUITS = {Suit.CLUBS: "of clubs", Suit.DIAMONDS: "of diamonds", Suit.HEARTS: "of hearts", Suit.SPADES: "of spades"}

def card_name(card: Card, role: str = "subject") -> str:
    """A card as the language says it. ``role`` is "subject" (дама пик) or "object"
    (кладёт даму пик: the Russian accusative; the same words in English and Portuguese).

    >>> card_name(Card.parse('QS'))
    'the queen of spades'
    >>> with use_language('ru'):
    ...     card_name(Card.parse('QS')), card_name(Card.parse('QS'), 'object'), card_name(Card.parse('10H'))
    ('дама пик', 'даму пик', 'десятка червей')
    >>> with use_language('pt'):
    ...     card_name(Card.parse('QS')), card_name(Card.parse('10H'))
    ('a dama de espadas', 'o dez de copas')
    """
    if role not in ("subject", "object"):
        raise ValueError(f"role must be subject or object, got {role!r}")
    context = "card rank" if role == "subject" else "card rank, object"
    rank = _translations(_current).pgettext(context, _RANKS[card.rank])
    suit = _translations(_current).pgettext("card suit", _SUITS[card.suit])
    return f"{rank} {suit}"


def capital(text: str) -> str:
    """The sentence with its first letter upper-case (a card's name may begin it)."""
    return text[:1].upper() + text[1:]


def and_list(items: Iterable[str]) -> str:
    """``a, b and c`` in the current language ("a, b и c", "a, b e c")."""
    parts = list(items)
    if len(parts) <= 1:
        return "".join(parts)
    return _("{items} and {last}", items=", ".join(parts[:-1]), last=parts[-1])


def card_messages() -> list[tuple[str, str]]:
    """(context, msgid) of every card word, for the catalogs (dealer/speech/i18n_extract.py)."""
    out = [("card rank", r) for r in _RANKS.values()]
    out += [("card rank, object", r) for r in _RANKS.values()]
    out += [("card suit", s) for s in _SUITS.values()]
    return out
