"""PHH, the TOML hand-history standard (``.phh``: one hand, ``.phhs``: many).

Writing walks a hand's events and prints TOML by hand (exact and fast: no TOML
library); reading uses ``tomllib``. Online-preset hands use the variant codes
``N5CD``, ``P5CD`` and ``F5CD`` (no limit, pot limit, fixed limit), which a
``pokerkit.HandHistory`` subclass can register (``drawpoker.history.pokerkit_codes``);
Italian-preset hands use ``I5CD``. What PHH cannot say goes in ``_`` fields and
action comments, listed in ``docs/hand-histories.md``.

Players are ``p1`` (the first seat left of the button) to ``pN`` (the button), the
engine's own order. In a draw every discard (``pK sd CARDS``, ``pK sd`` = stand
pat) comes before the replacement deals (``d dh pK CARDS``), as PokerKit wants.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import fields
from fractions import Fraction
from functools import lru_cache
from typing import Any

from drawpoker.cards import format_cards
from drawpoker.errors import DrawPokerError
from drawpoker.events import (
    BetPlaced,
    Called,
    CardsDelivered,
    CardsReceived,
    Checked,
    DeckRevealed,
    Discarded,
    DiscardedCards,
    Folded,
    HandEnded,
    HandShown,
    HandStarted,
    Mucked,
    OpenersShown,
    Posted,
    PostKind,
    PotAwarded,
    Raised,
    Reshuffled,
    StoodPat,
    TimedOut,
)
from drawpoker.hand import Hand
from drawpoker.history.info import HandInfo
from drawpoker.rules import Rules, Structure

VARIANTS = {
    Structure.NO_LIMIT: "N5CD",
    Structure.POT_LIMIT: "P5CD",
    Structure.FIXED_LIMIT: "F5CD",
}
ITALIAN_VARIANT = "I5CD"
STRUCTURE_OF = {code: structure for structure, code in VARIANTS.items()}
TIMEOUT_NOTE = "timeout"
DEAD_POSTS = (PostKind.ANTE, PostKind.DEAD_SMALL_BLIND, PostKind.INVITO)
# Rules fields that the standard fields or the variant code already say.
_RULES_SKIPPED = frozenset({"preset", "structure", "openers_rank"})


class HistoryError(DrawPokerError, ValueError):
    """A hand history that cannot be read, replayed or verified; the message says where."""


def variant_of(rules: Rules) -> str:
    return ITALIAN_VARIANT if rules.is_italian else VARIANTS[rules.structure]


# ------------------------------------------------------------------ TOML values


def toml_str(text: str) -> str:
    """A TOML string: literal when it can be, else a basic string with escapes."""
    if "'" not in text and text.isprintable():
        return f"'{text}'"
    return json.dumps(text, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):  # StrEnum included
        return toml_str(str(value))
    if isinstance(value, Fraction):
        return toml_str(str(value))
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _int_list(values: Iterable[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


@lru_cache(maxsize=64)
def rules_table(rules: Rules) -> str:
    """``{max_seats = 6, small_blind = 1, ...}``: every option but preset and structure."""
    parts = [
        f"{f.name} = {_toml_value(getattr(rules, f.name))}"
        for f in fields(rules)
        if f.init and f.name not in _RULES_SKIPPED
    ]
    return "{" + ", ".join(parts) + "}"


# ---------------------------------------------------------------------- writing


def default_posts(rules: Rules, order: Sequence[int], button: int) -> list[tuple[int, PostKind]]:
    """The (seat, kind) forced bets the engine makes by itself, in posting order.

    ``order`` is the seats clockwise from left of the button (the engine's players)."""
    n = len(order)
    if rules.is_italian:
        dealer = order.index(button) if button in order else n - 1
        posts = [(order[dealer], PostKind.INVITO)]
        if rules.invito_for_others():
            posts += [(order[i], PostKind.INVITO) for i in range(n) if i != dealer]
        return posts
    posts = [(seat, PostKind.ANTE) for seat in order] if rules.antes else []
    if rules.big_blind:
        if n == 2:
            sb, bb = (1, 0) if order[1] == button else (0, 1)
        else:
            sb, bb = 0, 1
        if rules.small_blind:
            posts.append((order[sb], PostKind.SMALL_BLIND))
        posts.append((order[bb], PostKind.BIG_BLIND))
    return posts


def _nominal(rules: Rules, kind: PostKind, amount: int, explicit: bool) -> int:
    if explicit:
        return amount
    if kind is PostKind.SMALL_BLIND:
        return rules.small_blind
    if kind is PostKind.BIG_BLIND:
        return rules.big_blind
    if kind is PostKind.ANTE:
        return rules.antes
    return amount


def _action_lines(hand: Hand, index: dict[int, int]) -> list[str]:
    """The PHH ``actions`` of the events so far."""
    out: list[str] = []
    sds: list[str] = []
    dhs: list[tuple[int, tuple[int, ...]]] = []
    notes: list[str] = []
    dealt: set[int] = set()  # the first deal: what PokerKit's deck no longer holds
    in_draw = False
    delivered = False
    note = ""
    for e in hand.events:
        t = type(e)
        if t is CardsReceived:
            if delivered:
                dhs.append((index[e.seat], e.cards))  # type: ignore[attr-defined]
                delivered = False
            else:
                dealt.update(e.cards)  # type: ignore[attr-defined]
                out.append(f"d dh p{index[e.seat]} {format_cards(e.cards, '')}")  # type: ignore[attr-defined]
            continue
        if t is CardsDelivered:
            delivered = True
            continue
        if t is TimedOut:
            note = f" # {TIMEOUT_NOTE}"
            continue
        if t is DiscardedCards:
            sds.append(f"p{index[e.seat]} sd {format_cards(e.cards, '')}{note}")  # type: ignore[attr-defined]
            note = ""
            in_draw = True
            continue
        if t is StoodPat:
            sds.append(f"p{index[e.seat]} sd{note}")  # type: ignore[attr-defined]
            note = ""
            in_draw = True
            continue
        if t is Reshuffled:
            kept = e.excluded_seat  # type: ignore[attr-defined]
            notes.append(
                f"# reshuffle: {e.size} cards"  # type: ignore[attr-defined]
                + (f", p{index[kept]}'s discards kept out" if kept else "")
            )
            continue
        if t is Discarded:
            continue
        if in_draw:
            out += _draw_lines(sds, dhs, notes, dealt)
            sds, dhs, notes = [], [], []
            in_draw = False
        if t is Folded:
            out.append(f"p{index[e.seat]} f{note}")  # type: ignore[attr-defined]
            note = ""
        elif t is Checked or t is Called:
            out.append(f"p{index[e.seat]} cc{note}")  # type: ignore[attr-defined]
            note = ""
        elif t is BetPlaced:
            out.append(f"p{index[e.seat]} cbr {e.amount}")  # type: ignore[attr-defined]
        elif t is Raised:
            out.append(f"p{index[e.seat]} cbr {e.to}")  # type: ignore[attr-defined]
        elif t is HandShown:
            out.append(f"p{index[e.seat]} sm {format_cards(e.cards, '')}")  # type: ignore[attr-defined]
        elif t is Mucked:
            out.append(f"p{index[e.seat]} sm")  # type: ignore[attr-defined]
        elif t is OpenersShown:
            valid = "valid" if e.valid else "false openers"  # type: ignore[attr-defined]
            out.append(f"# openers p{index[e.seat]} {format_cards(e.cards, '')} {valid}")  # type: ignore[attr-defined]
    if in_draw:
        out += _draw_lines(sds, dhs, notes, dealt)
    return out


def _draw_lines(
    sds: list[str], dhs: list[tuple[int, tuple[int, ...]]], notes: list[str], dealt: set[int]
) -> list[str]:
    """A draw: the discards, then the replacement deals.

    Without a reshuffle the deals keep the engine's order. After one they are
    ordered for PokerKit, which deals its stub to the last card before it reuses
    discards and warns about a card dealt otherwise: deals from its stub go first,
    and a deal that must reach into the discards is made larger than its stub."""
    if notes:
        dhs = deal_order(dhs, dealt)
    return [*sds, *notes, *(f"d dh p{k} {format_cards(cards, '')}" for k, cards in dhs)]


def deal_order(
    dhs: list[tuple[int, tuple[int, ...]]], dealt: set[int]
) -> list[tuple[int, tuple[int, ...]]]:
    """Reorder (and split) the replacement deals so that PokerKit never deals a card
    from its reserve while its stub could serve the deal. Each player's cards keep
    their order. Where no order can avoid it (R24 shuffles the stub together with
    the discards; PokerKit uses the stub up first), the rest stays in engine order."""
    queues: dict[int, list[int]] = {}
    for k, cards in dhs:
        queues.setdefault(k, []).extend(cards)
    stub = set(range(52)) - dealt
    out: list[tuple[int, tuple[int, ...]]] = []
    while queues:
        moved = False
        for k in list(queues):
            queue = queues[k]
            j = 0
            while j < len(queue) and queue[j] in stub:
                j += 1
            if j:
                out.append((k, tuple(queue[:j])))
                stub.difference_update(queue[:j])
                del queue[:j]
                moved = True
                if not queue:
                    del queues[k]
        if moved:
            continue
        if not stub:  # PokerKit reshuffles at the next deal: every card is dealable
            out += [(k, tuple(q)) for k, q in queues.items()]
            break
        k = max(queues, key=lambda key: (len(queues[key]), -key))
        queue = queues.pop(k)
        out.append((k, tuple(queue)))
        if stub <= set(queue) and len(queue) > len(stub):
            stub = set(range(52))  # PokerKit reshuffled: everything is in its stub
        else:
            stub.difference_update(queue)
    return out


def dumps(hand: Hand, info: HandInfo | None = None) -> str:
    """One hand as a ``.phh`` document."""
    return "\n".join(_lines(hand, info or _NO_INFO)) + "\n"


def dumps_all(hands: Iterable[Hand | tuple[Hand, HandInfo | None]]) -> str:
    """Many hands as a ``.phhs`` document: tables ``[1]``, ``[2]``, ..."""
    chunks = []
    for i, item in enumerate(hands, 1):
        hand, info = item if isinstance(item, tuple) else (item, None)
        chunks.append(f"[{i}]\n" + "\n".join(_lines(hand, info or _NO_INFO)) + "\n")
    return "\n".join(chunks)


_NO_INFO = HandInfo()


def _lines(hand: Hand, info: HandInfo) -> list[str]:
    rules = hand.rules
    players = hand.players
    n = len(players)
    order = [p.seat for p in players]
    index = {seat: i + 1 for i, seat in enumerate(order)}
    events = hand.events
    started = events[0]
    assert isinstance(started, HandStarted)
    posted = [e for e in events if type(e) is Posted]
    actual = [(e.seat, e.kind) for e in posted]
    explicit = actual != default_posts(rules, order, hand.button)
    antes = [0] * n
    blinds = [0] * n
    for e in posted:
        i = index[e.seat] - 1
        amount = _nominal(rules, e.kind, e.amount, explicit)
        if e.kind in DEAD_POSTS:
            antes[i] += amount
        else:
            blinds[i] += amount
    if n == 2:  # PokerKit reads heads-up forced bets in reverse
        antes.reverse()
        blinds.reverse()
    lines = [
        f"variant = '{variant_of(rules)}'",
        f"antes = {_int_list(antes)}",
        f"blinds_or_straddles = {_int_list(blinds)}",
    ]
    if rules.is_fixed_limit:
        small, big = rules.bet_sizes
        lines.append(f"small_bet = {small}")
        lines.append(f"big_bet = {big}")
    else:
        lines.append(f"min_bet = {rules.min_bet}")
    lines.append(f"starting_stacks = {_int_list(p.start for p in players)}")
    actions = _action_lines(hand, index)
    lines.append("actions = [")
    lines.extend(f"  {toml_str(a)}," for a in actions)
    lines.append("]")
    if hand.hand_id:
        lines.append(f"hand = {toml_str(hand.hand_id)}")
    if info.table:
        lines.append(f"table = {toml_str(info.table)}")
    lines.append(f"seats = {_int_list(order)}")
    lines.append(f"seat_count = {rules.max_seats}")
    if info.names:
        lines.append("players = [" + ", ".join(toml_str(info.name(s)) for s in order) + "]")
    ended = events[-1] if hand.is_over else None
    if isinstance(ended, HandEnded):
        final = dict(ended.stacks)
        won = dict.fromkeys(order, 0)
        for ev in events:
            if isinstance(ev, PotAwarded):
                for seat, chips in ev.shares:
                    won[seat] += chips
        lines.append(f"finishing_stacks = {_int_list(final[s] for s in order)}")
        lines.append(f"winnings = {_int_list(won[s] for s in order)}")
    if info.currency:
        lines.append(f"currency = {toml_str(info.currency)}")
    if info.currency_symbol:
        lines.append(f"currency_symbol = {toml_str(info.currency_symbol)}")
    if info.time is not None:
        t = info.time
        lines.append(f"time = {t.strftime('%H:%M:%S')}")
        lines.append(f"day = {t.day}")
        lines.append(f"month = {t.month}")
        lines.append(f"year = {t.year}")
    if info.time_zone:
        lines.append(f"time_zone = {toml_str(info.time_zone)}")
    lines.append(f"_button = {hand.button}")
    lines.append(f"_rules = {rules_table(rules)}")
    if explicit:
        posts = ", ".join(
            f"[{e.seat}, '{e.kind}', {e.amount}]" for e in posted if e.kind is not PostKind.ANTE
        )
        lines.append(f"_posts = [{posts}]")
    if started.carried_pot:
        lines.append(f"_carried_in = {started.carried_pot}")
    commitment = started.commitment or info.commitment
    if commitment:
        lines.append(f"_commitment = {toml_str(commitment)}")
    if isinstance(ended, HandEnded):
        lines.append(f"_rake = {ended.rake}")
        if ended.carried_pot:
            lines.append(f"_carried_out = {ended.carried_pot}")
        for ev in reversed(events):
            if isinstance(ev, DeckRevealed):
                lines.append(f"_seed = '{ev.seed}'")
                break
    if info.time_text:
        lines.append(f"_time_text = {toml_str(info.time_text)}")
    if info.tournament is not None:
        tour = info.tournament
        lines.append(
            f"_tournament = {{id = {toml_str(tour.id)}, buy_in = {toml_str(tour.buy_in)}, "
            f"fee = {toml_str(tour.fee)}, level = {tour.level}}}"
        )
    return lines


# ---------------------------------------------------------------------- reading


def loads(text: str) -> dict[str, Any]:
    """One ``.phh`` document as a dict (TOML parsed by ``tomllib``)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from None


def loads_all(text: str) -> list[dict[str, Any]]:
    """The hands of a ``.phhs`` document, in order (a lone ``.phh`` hand gives one)."""
    data = loads(text)
    if "variant" in data:
        return [data]
    hands = []
    for key, value in data.items():
        if not isinstance(value, dict):
            raise HistoryError(f"[{key}] is not a hand table")
        hands.append(value)
    return hands
