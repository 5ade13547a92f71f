"""Reading history files: ``.phh`` (one hand), ``.phhs`` (many), PokerStars-style
text (read into PHH first), or a player's JSON history (``GET /api/hands/{hand}``,
for ``verify``), with clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from drawpoker.history.phh import HistoryError, loads, loads_all, render
from drawpoker.history.pokerstars_read import is_pokerstars, read_all


def _json_hand(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as error:
        raise HistoryError(f"not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise HistoryError("a JSON history is an object with its hand's events")
    return data


def read_hands(
    path: str | Path, number: int | None = None, *, json_history: bool = False
) -> list[tuple[int, dict[str, Any]]]:
    """``[(hand number from 1, hand data)]`` of a file, or just hand ``number``
    (``json_history``: a player's JSON history is welcome too)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise HistoryError(f"{path}: {error.strerror}") from None
    try:
        if text.lstrip().startswith("{"):  # a player's JSON history (GET /api/hands/{hand})
            if not json_history:
                raise HistoryError("a JSON history can be verified, not replayed or converted")
            hands = [_json_hand(text)]
        elif is_pokerstars(text):
            hands = [loads(render(r)) for r in read_all(text)]
        else:
            hands = loads_all(text)
    except HistoryError as error:
        raise HistoryError(f"{path}: {error}") from None
    numbered = list(enumerate(hands, 1))
    if number is None:
        return numbered
    if not 1 <= number <= len(hands):
        raise HistoryError(f"{path}: there is no hand {number} (the file holds {len(hands)})")
    return [numbered[number - 1]]
