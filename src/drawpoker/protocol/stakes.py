"""What names a table's game on the wire: the game, the limit, the blinds, the bets
of a fixed-limit game, the ante, the invito and the openers of an Italian table.
Clients name tables from these (in their own language) rather than from a
server's English summary."""

from __future__ import annotations

from typing import Any

from drawpoker.rules import Rules


def stakes_of(rules: Rules) -> dict[str, Any]:
    """The fields a lobby row and a snapshot carry about ``rules``."""
    small_bet, big_bet = rules.bet_sizes if rules.is_fixed_limit else (None, None)
    italian = rules.is_italian
    return {
        "game": "italian" if italian else "draw",
        "structure": str(rules.structure),
        "small_blind": None if italian else rules.small_blind,
        "big_blind": None if italian else rules.big_blind,
        "small_bet": small_bet,
        "big_bet": big_bet,
        "ante": rules.antes,
        "invito": rules.invito if italian else None,
        "openers": rules.openers if italian else None,
    }
