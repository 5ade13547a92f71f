"""Provably fair deals: check a history against its deck commitment and seed.

Before the deal a hand publishes ``SHA-256(seed)`` (``_commitment``); the archive
history reveals the seed (``_seed``). ``verify`` checks that the seed matches the
commitment, then replays the hand dealing from the seed (``docs/fairness.md``), so
that every card the history names, the first deal and every replacement,
reshuffles included, is re-derived and compared; the first disagreement is
reported with the action's index and text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from drawpoker.events import CardsReceived, Reshuffled
from drawpoker.history.phh import HistoryError
from drawpoker.history.replay import replay


@dataclass(slots=True)
class Verdict:
    """What ``verify`` found for one hand: ``ok`` when nothing disagrees."""

    number: int
    problems: list[str] = field(default_factory=list)
    cards: int = 0  # cards re-derived from the seed
    reshuffles: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        if self.ok:
            extra = f", {self.reshuffles} reshuffle" + ("s" if self.reshuffles != 1 else "")
            return (
                f"hand {self.number}: fair: the seed matches the commitment and deals all "
                f"{self.cards} cards of the history{extra if self.reshuffles else ''}"
            )
        return "\n".join(self.problems)


def verify(data: dict[str, Any], *, number: int = 1, source: str = "") -> Verdict:
    verdict = Verdict(number)
    where = f"{source}: hand {number}" if source else f"hand {number}"
    problems: list[str] = []
    commitment = data.get("_commitment")
    seed_hex = data.get("_seed")
    if not commitment:
        problems.append("no deck commitment (_commitment): nothing to verify")
    if not seed_hex:
        problems.append("the seed is not revealed (_seed): the hand may be unfinished")
    if problems:
        verdict.problems = [f"{where}: {p}" for p in problems]
        return verdict
    try:
        seed = bytes.fromhex(str(seed_hex))
    except ValueError:
        verdict.problems = [f"{where}: _seed {seed_hex!r} is not hexadecimal"]
        return verdict
    digest = hashlib.sha256(seed).hexdigest()
    if digest != commitment:
        verdict.problems.append(
            f"{where}: the seed does not match the commitment: SHA-256(_seed) is {digest}, "
            f"the hand committed to {commitment}"
        )
        return verdict
    try:
        replayed = replay(data, source=source, number=number, use_seed=True)
    except HistoryError as error:
        verdict.problems.append(str(error))
        return verdict
    events = replayed.hand.events
    verdict.cards = sum(len(e.cards) for e in events if isinstance(e, CardsReceived))
    verdict.reshuffles = sum(1 for e in events if isinstance(e, Reshuffled))
    named = 0
    for text in data.get("actions") or []:
        words = str(text).split("#", 1)[0].split()
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            named += len(words[3]) // 2
    if named != verdict.cards:
        verdict.problems.append(
            f"{where}: the seed deals {verdict.cards} cards, the history names {named}"
        )
    return verdict
