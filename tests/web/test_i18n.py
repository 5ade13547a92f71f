"""The four interface languages say the same things, and every string the client
shows has a translation (no browser needed)."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from drawpoker.cards import RANK_NAMES, RANK_PLURALS, parse_cards
from drawpoker.evaluator import evaluate
from drawpoker.events import PostKind, Street

WEB = Path(__file__).resolve().parents[2] / "src" / "drawpoker" / "web"
LANGUAGES = ("en", "it", "es", "fi")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{code}.json").read_text("utf-8"))
    return data


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = load("en")
    for code in LANGUAGES[1:]:
        other = load(code)
        assert set(other) == set(english), f"{code}: {set(other) ^ set(english)}"
        for key, text in english.items():
            want = set(PLACEHOLDER.findall(text))
            got = set(PLACEHOLDER.findall(other[key]))
            assert got == want, f"{code} {key}: placeholders {got}, English has {want}"
            assert other[key].strip(), f"{code} {key} is empty"


def test_every_key_the_client_uses_exists() -> None:
    english = load("en")
    used: set[str] = set()
    for path in WEB.rglob("*.js"):  # the console too
        text = path.read_text("utf-8")
        used.update(re.findall(r"\bt\(\"([\w.\-]+)\"", text))
        used.update(f"{k}.{form}" for k in re.findall(r"\btn\(\"([\w.\-]+)\"", text)
                    for form in ("one", "other"))  # fmt: skip
    used.update(re.findall(r'data-i18n="([\w.\-]+)"', (WEB / "index.html").read_text("utf-8")))
    assert len(used) > 100
    missing = sorted(k for k in used if k not in english)
    assert not missing, missing


def test_keys_built_from_server_values_exist() -> None:
    english = load("en")
    for kind in PostKind:
        name = kind.value.replace(" ", "_")
        for prefix in ("post.", "log.post.", "blind."):
            assert prefix + name in english
    for street in Street:
        assert f"street.{street.value}" in english
    for structure in ("fixed-limit", "pot-limit", "no-limit"):
        assert f"structure.{structure}" in english
    for rank in "23456789TJQKA":
        assert f"rank.{rank}" in english
        assert f"ranks.{rank}" in english
    for suit in "shdc":
        assert f"suit.{suit}" in english


def test_the_client_translates_every_hand_description_the_engine_writes() -> None:
    """The server describes hands in English; i18n.js parses them with its patterns."""
    source = (WEB / "i18n.js").read_text("utf-8")
    patterns = [re.compile(p) for p in re.findall(r"\[/(\^.*?\$)/, \"hd\.", source)]
    assert len(patterns) == 10
    words = set(RANK_NAMES) | set(RANK_PLURALS)
    rng = random.Random(7)
    deck = [r + s for r, s in itertools.product("23456789TJQKA", "shdc")]
    samples = ["As Ks Qs Js Ts", "5h 4h 3h 2h Ah", "Kc Kd Kh Ks 2c", "2c 2d 3h 3s 3c"]
    samples += [" ".join(rng.sample(deck, 5)) for _ in range(3000)]
    seen = set()
    for cards in samples:
        text = evaluate(parse_cards(cards)).description
        pattern = next((p for p in patterns if p.match(text)), None)
        assert pattern is not None, f"no pattern reads {text!r}"
        found = pattern.match(text)
        assert found is not None
        assert set(found.groups()) <= words, text  # rank words the client knows
        seen.add(pattern.pattern)
    assert len(seen) >= 8


@pytest.mark.parametrize("code", LANGUAGES)
def test_stand_pat_is_said_the_way_players_say_it(code: str) -> None:
    want = {"en": "Stand Pat", "it": "Servito", "es": "Me planto", "fi": "Pidän kortit"}[code]
    assert load(code)["action.stand_pat"] == want


def test_every_error_code_the_server_documents_is_translated() -> None:
    protocol = (WEB.parents[2] / "docs" / "protocol.md").read_text("utf-8")
    section = protocol.split("### Error codes", 1)[1].split("##", 1)[0]
    codes = set(re.findall(r"`(\w+)`", section))
    assert "illegal_action" in codes
    english = load("en")
    parse_errors = {
        "bad_json",
        "bad_message",
        "unknown_type",
        "bad_field",
        "too_large",
        "too_deep",
        "bad_protocol",
    }
    missing = sorted(c for c in codes - parse_errors if f"error.{c}" not in english)
    assert not missing, missing


def test_tournament_keys_built_from_server_values_exist() -> None:
    """Keys the tournament views build from the protocol's values (docs/protocol.md)."""
    english = load("en")
    for status in ("registering", "running", "paying", "finished", "cancelled"):
        assert f"tour.status.{status}" in english
    for kind in ("sit-and-go", "scheduled"):
        assert f"tour.kind.{kind}" in english
    for column in ("name", "buy_in", "chips", "players", "starts", "prize_pool", "status"):
        assert f"tour.col.{column}" in english  # the Tournaments tab's columns
    for form in ("one", "two", "few", "many", "other"):  # Intl.PluralRules ordinal forms
        for code in LANGUAGES:
            assert "{n}" in load(code)[f"ord.{form}"]
