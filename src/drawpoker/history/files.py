"""Reading history files: ``.phh`` (one hand), ``.phhs`` (many), or PokerStars-style
text (read into PHH first), with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from drawpoker.history.phh import HistoryError, loads, loads_all, render
from drawpoker.history.pokerstars_read import is_pokerstars, read_all


def read_hands(path: str | Path, number: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """``[(hand number from 1, hand data)]`` of a file, or just hand ``number``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise HistoryError(f"{path}: {error.strerror}") from None
    try:
        if is_pokerstars(text):
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
