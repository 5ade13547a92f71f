"""The browser client's translation catalogue (``drawpoker/web/i18n/<lang>.json``),
read by the terminal client: one set of strings for both clients, in English,
Italian, Spanish and Finnish. A key missing in a language falls back to English,
then to the key itself."""

from __future__ import annotations

import json
import os
from pathlib import Path

LANGUAGES = ("en", "it", "es", "fi")
CATALOGUE = Path(__file__).resolve().parent.parent / "web" / "i18n"


def _load(lang: str) -> dict[str, str]:
    try:
        data = json.loads((CATALOGUE / f"{lang}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def pick_language(wanted: str | None = None) -> str:
    """``wanted`` if known, else the environment's (``LANG``: ``it_IT.UTF-8``), else English."""
    for candidate in (wanted, os.environ.get("LC_ALL"), os.environ.get("LANG")):
        code = (candidate or "").split("_")[0].split(".")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


class Catalogue:
    """``t(key, **values)``: the string in the chosen language, ``{name}`` filled in."""

    def __init__(self, lang: str = "en") -> None:
        self._english = _load("en")
        self.lang = "en"
        self._strings = self._english
        self.set_language(lang)

    def set_language(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._strings = self._english if self.lang == "en" else _load(self.lang)

    def next_language(self) -> str:
        self.set_language(LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)])
        return self.lang

    def has(self, key: str) -> bool:
        return key in self._strings or key in self._english

    def t(self, key: str, **values: object) -> str:
        text = self._strings.get(key) or self._english.get(key) or key
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def ordinal(self, n: int) -> str:
        """``1st``, ``2nd`` ... as the browser's ``ord.*`` keys say (English plural rules)."""
        if self.lang != "en":
            return self.t("ord.other", n=n)
        tail = n % 100
        key = "many" if 11 <= tail <= 13 else {1: "one", 2: "two", 3: "few"}.get(n % 10, "many")
        return self.t(f"ord.{key}", n=n)
