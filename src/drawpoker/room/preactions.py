"""Pre-actions (R25): decisions a player gives before their turn, held by the
table and carried out when the turn comes, as if the player had acted then.

- ``draw``: the cards to throw (``()``: stand pat), kept until the player's draw;
- ``check``, ``check_fold``: cancelled when the wager they were made against
  changes (a bet or raise, or a new betting round);
- ``call``: call exactly ``amount`` more; cancelled when the price changes;
- ``call_any``: call whatever is bet in that betting round (check if nothing is);
- ``fold_any``: check if free, else fold, whatever is bet in that round.

A held draw and a betting pre-action are kept apart: acting in the first
betting round, or setting a betting pre-action, leaves a held draw in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from drawpoker.actions import Action
from drawpoker.cards import format_cards
from drawpoker.errors import IllegalAction
from drawpoker.events import Street
from drawpoker.hand import Hand
from drawpoker.legal import LegalActions

PreKind = Literal["draw", "check", "check_fold", "call", "call_any", "fold_any"]
BETTING_KINDS: frozenset[str] = frozenset(("check", "check_fold", "call", "call_any", "fold_any"))


@dataclass(frozen=True, slots=True)
class PreAction:
    kind: PreKind
    hand_id: str
    street: Street  # the betting round it was set in (draw: the street when set)
    facing: int  # the highest wager when set (check, check_fold)
    amount: int = 0  # call: the chips to add
    cards: tuple[int, ...] = ()  # draw: the discards


def facing(hand: Hand) -> int:
    """The highest wager of the betting round in play."""
    return max((p.wager for p in hand.players), default=0)


def make(hand: Hand, seat: int, kind: PreKind, cards: tuple[int, ...] = ()) -> PreAction:
    """A pre-action for ``seat`` now, or ``IllegalAction`` saying why it cannot be held."""
    player = hand.player(seat)
    if hand.is_over or player.folded:
        raise IllegalAction(f"seat {seat} is not in the hand")
    street = hand.street
    if kind == "draw":
        if street not in (Street.PRE_DRAW, Street.DRAW) or player.drew is not None:
            raise IllegalAction(f"seat {seat}: the draw is over for you")
        if len(cards) > hand.rules.max_discard:
            raise IllegalAction(
                f"seat {seat}: you may discard at most {hand.rules.max_discard} cards"
            )
        missing = [c for c in cards if c not in player.cards]
        if missing:
            raise IllegalAction(f"seat {seat}: you do not hold {format_cards(missing)}")
        if len(set(cards)) != len(cards):
            raise IllegalAction(f"seat {seat}: each card may be discarded once")
        return PreAction("draw", hand.hand_id, street, 0, cards=cards)
    if street not in (Street.PRE_DRAW, Street.POST_DRAW):
        raise IllegalAction(f"seat {seat}: betting pre-actions are for the betting rounds")
    if player.all_in:
        raise IllegalAction(f"seat {seat} is all in")
    high = facing(hand)
    owed = min(high - player.wager, player.stack)
    if kind == "check" and owed > 0:
        raise IllegalAction(f"seat {seat}: there is a bet of {high} to call; check is not possible")
    if kind == "call" and owed <= 0:
        raise IllegalAction(f"seat {seat}: there is nothing to call")
    return PreAction(kind, hand.hand_id, street, high, amount=owed if kind == "call" else 0)


def resolve(pre: PreAction, legal: LegalActions, hand: Hand) -> Action | None:
    """The action ``pre`` makes on this turn, or None (it no longer applies)."""
    seat = legal.seat
    if pre.hand_id != hand.hand_id:
        return None
    if legal.draw:
        if pre.kind != "draw" or any(c not in legal.hand for c in pre.cards):
            return None
        return Action.draw(seat, pre.cards)
    if pre.kind == "draw" or pre.street != legal.street:
        return None
    unchanged = pre.facing == facing(hand)
    if pre.kind == "call_any":
        return Action.call(seat) if legal.call else Action.check(seat)
    if pre.kind == "fold_any":
        return Action.check(seat) if legal.check else Action.fold(seat)
    if pre.kind == "call":
        return Action.call(seat) if legal.call == pre.amount else None
    if not unchanged:
        return None
    if pre.kind == "check":
        return Action.check(seat) if legal.check else None
    return Action.check(seat) if legal.check else Action.fold(seat)  # check_fold
