"""Replay a PHH hand through the engine, from any point, with errors that point at the line.

A hand that carries its seed (``_seed``, our archive) is dealt from the seed and
every card the history names is checked against it; a hand without one (a foreign
file) is dealt from a deck stacked with the cards the history names. Each action
goes through ``Hand.legal_actions``/``Hand.act``: an illegal or malformed one
stops the replay with a ``HistoryError`` naming the source, the hand, the action's
index (from 1) and text, and the rule broken.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from drawpoker.actions import Action, LegalActions
from drawpoker.cards import DECK, Card, format_cards, parse_cards
from drawpoker.deck import Deck
from drawpoker.errors import DrawPokerError
from drawpoker.events import CardsReceived, HandShown, Mucked, PostKind, Street
from drawpoker.hand import Hand
from drawpoker.history.info import HandInfo, Tournament
from drawpoker.history.phh import (
    ITALIAN_VARIANT,
    STRUCTURE_OF,
    TIMEOUT_NOTE,
    HistoryError,
)
from drawpoker.pots import build_pots
from drawpoker.rules import Preset, Rules, Structure

_RULE_OF = {
    Structure.FIXED_LIMIT: "R15",
    Structure.POT_LIMIT: "R18",
    Structure.NO_LIMIT: "R17",
}


@dataclass(slots=True)
class Replayed:
    """A hand rebuilt from its history: the engine's ``Hand`` and the metadata."""

    hand: Hand
    info: HandInfo
    data: dict[str, Any]


_RULES_CACHE: dict[tuple[str, str], Rules] = {}


def rules_from(data: Mapping[str, Any]) -> Rules:
    """The rules of a PHH hand: the variant, then ``_rules`` or the standard fields."""
    variant = data.get("variant")
    if variant == ITALIAN_VARIANT:
        preset, structure = Preset.ITALIAN, Structure.POT_LIMIT
    elif variant in STRUCTURE_OF:
        preset, structure = Preset.ONLINE, STRUCTURE_OF[variant]
    else:
        codes = ", ".join([*STRUCTURE_OF, ITALIAN_VARIANT])
        raise HistoryError(f"variant {variant!r} is not 5-Card Draw (one of {codes})")
    options = data.get("_rules")
    if isinstance(options, dict):
        key = (variant, repr(options))
        rules = _RULES_CACHE.get(key)
        if rules is None:
            base = Rules.italian() if preset is Preset.ITALIAN else Rules.online()
            try:
                rules = base.replace(structure=structure, **options)
            except TypeError as error:
                raise HistoryError(f"_rules: {error}") from None
            if len(_RULES_CACHE) < 256:
                _RULES_CACHE[key] = rules
        return rules
    return _rules_from_standard(data, preset, structure)


def _rules_from_standard(data: Mapping[str, Any], preset: Preset, structure: Structure) -> Rules:
    """A foreign file: the forced bets and bet sizes from the standard fields."""
    stacks = data.get("starting_stacks") or []
    n = len(stacks)
    blinds = list(data.get("blinds_or_straddles") or [0] * n)
    antes = list(data.get("antes") or [0] * n)
    if n == 2:
        blinds.reverse()
        antes.reverse()
    seats = data.get("seats") or list(range(1, n + 1))
    max_seats = data.get("seat_count") or max(max(seats, default=2), 2)
    live = sorted(b for b in blinds if b)
    kwargs: dict[str, Any] = {"max_seats": max_seats}
    if preset is Preset.ITALIAN:
        kwargs["invito"] = max(antes, default=0)
        return Rules.italian(**kwargs)
    kwargs["small_blind"] = live[0] if len(live) > 1 else 0
    kwargs["big_blind"] = live[-1] if live else 0
    kwargs["antes"] = max(antes, default=0)
    if structure is Structure.FIXED_LIMIT:
        kwargs["small_bet"] = data.get("small_bet", 0)
        kwargs["big_bet"] = data.get("big_bet", 0)
    elif not kwargs["big_blind"]:
        kwargs["big_blind"] = data.get("min_bet", 0)
    return Rules.online(structure=structure, **kwargs)


def info_from(data: Mapping[str, Any], seats: list[int]) -> HandInfo:
    names = data.get("players") or []
    when = None
    t = data.get("time")
    if isinstance(t, dt.time) and data.get("year"):
        when = dt.datetime(data["year"], data.get("month", 1), data.get("day", 1), t.hour,
                           t.minute, t.second)  # fmt: skip
    tour = data.get("_tournament")
    return HandInfo(
        names=dict(zip(seats, (str(x) for x in names), strict=False)),
        table=str(data.get("table", "")),
        time=when,
        time_zone=str(data.get("time_zone", "")),
        time_text=str(data.get("_time_text", "")),
        currency=str(data.get("currency", "")),
        currency_symbol=str(data.get("currency_symbol", "")),
        tournament=Tournament(**tour) if isinstance(tour, dict) else None,
        commitment=str(data.get("_commitment", "")),
    )


_CARD_OF = {str(card): card for card in DECK}


def fast_cards(text: str) -> tuple[Card, ...]:
    """``"AsKd7c"`` -> cards: a dictionary lookup per card, ``parse_cards`` otherwise
    (other spellings, and its precise errors)."""
    if "?" in text:
        raise ValueError("unknown cards (??): only a history whose every card is known replays")
    if len(text) % 2 == 0:
        try:
            cards = tuple([_CARD_OF[text[i : i + 2]] for i in range(0, len(text), 2)])
        except KeyError:
            return parse_cards(text)
        if len(set(cards)) == len(cards):
            return cards
    return parse_cards(text)


def _player(token: str, n: int) -> int:
    if token[:1] != "p" or not token[1:].isdigit() or not 1 <= int(token[1:]) <= n:
        raise ValueError(f"{token!r} is not a player p1-p{n}")
    return int(token[1:])


def _script(actions: list[str], n: int, max_consecutive: int) -> list[int]:
    """The dealing order a history implies: the deal one card at a time from p1,
    then each draw's immediate replacements in draw order, then the deferred rest."""
    initial: dict[int, list[int]] = {}
    draws: list[tuple[int, int]] = []  # (player, cards thrown) in draw order
    new: dict[int, list[int]] = {}
    for i, text in enumerate(actions, 1):
        words = str(text).split("#", 1)[0].split()
        try:
            if len(words) == 4 and words[:2] == ["d", "dh"]:
                k = _player(words[2], n)
                cards = [int(c) for c in fast_cards(words[3])]
                if not draws and k not in initial:
                    initial[k] = cards
                else:
                    new.setdefault(k, []).extend(cards)
            elif len(words) >= 2 and words[1] == "sd":
                thrown = len(fast_cards(words[2])) if len(words) > 2 else 0
                draws.append((_player(words[0], n), thrown))
        except (DrawPokerError, ValueError) as error:
            raise HistoryError(f"action {i} {text!r}: {error}") from None
    script = [initial[k][r] for r in range(5) for k in range(1, n + 1) if k in initial]
    for k, thrown in draws:
        script += new.get(k, [])[: min(thrown, max_consecutive)]
    for k, thrown in draws:
        script += new.get(k, [])[min(thrown, max_consecutive) :]
    return script


def start(data: Mapping[str, Any], *, use_seed: bool = True) -> tuple[Hand, HandInfo]:
    """The hand as it stands before the first action of the history."""
    rules = rules_from(data)
    stacks = data.get("starting_stacks")
    if not isinstance(stacks, list) or not stacks:
        raise HistoryError("starting_stacks is missing")
    n = len(stacks)
    seats = list(data.get("seats") or range(1, n + 1))
    if len(seats) != n:
        raise HistoryError(f"{len(seats)} seats for {n} starting stacks")
    button = data.get("_button", seats[-1])
    posts = None
    if "_posts" in data:
        posts = [(seat, PostKind(kind), amount) for seat, kind, amount in data["_posts"]]
    seed_hex = data.get("_seed")
    try:
        if seed_hex and use_seed:
            deck_args: dict[str, Any] = {"seed": bytes.fromhex(seed_hex)}
        else:
            actions = list(data.get("actions") or [])
            deck_args = {"deck": Deck.stacked(_script(actions, n, rules.max_consecutive_draw))}
        hand = Hand(
            rules,
            dict(zip(seats, stacks, strict=True)),
            button,
            carried_pot=data.get("_carried_in", 0),
            posts=posts,
            hand_id=str(data.get("hand", "")),
            **deck_args,
        )
    except (DrawPokerError, ValueError) as error:
        raise HistoryError(str(error)) from None
    order = [p.seat for p in hand.players]
    if order != seats:
        raise HistoryError(
            f"seats {seats} are not in order clockwise from left of the button {button}: {order}"
        )
    return hand, info_from(data, seats)


def replay(
    data: dict[str, Any], *, source: str = "", number: int = 1, use_seed: bool = True
) -> Replayed:
    """Play the history's actions; stop at the first one the rules refuse."""
    where = f"{source}: hand {number}" if source else f"hand {number}"
    try:
        hand, info = start(data, use_seed=use_seed)
    except HistoryError as error:
        sep = ", " if str(error).startswith("action ") else ": "
        raise HistoryError(f"{where}{sep}{error}") from None
    actions = data.get("actions") or []
    seats = [p.seat for p in hand.players]
    who = _Player(seats)
    owed: dict[int, list[int]] = {}
    dealing = True
    shows: dict[int, tuple[int, ...] | None] = {}
    for i, text in enumerate(actions, 1):
        try:
            dealing = _step(hand, str(text), who, owed, dealing, shows)
        except (DrawPokerError, ValueError) as error:
            raise HistoryError(f"{where}, action {i} {text!r}: {error}") from None
    final = data.get("finishing_stacks")
    if final is not None:
        if not hand.is_over:
            raise HistoryError(f"{where}: the actions stop before the end of the hand")
        got = [p.stack for p in hand.players]
        if list(final) != got:
            raise HistoryError(
                f"{where}: finishing_stacks says {list(final)}, the replay ends with {got}"
            )
    return Replayed(hand, info, data)


_SIMPLE_MAKERS = {
    "f": Action.fold,
    "x": Action.check,
    "c": Action.call,
    "sd": Action.stand_pat,
    "t": Action.timeout,
    "ask": Action.ask_openers,
    "decline": Action.decline,
}
# Actions are immutable: one of each kind per seat serves every hand.
_SIMPLE = {
    (seat, verb): make(seat) for seat in range(1, 9) for verb, make in _SIMPLE_MAKERS.items()
}


class _Player:
    """Per-hand lookups: ``p3`` -> index and seat; the actions that never change."""

    __slots__ = ("by_label", "seats", "simple")

    def __init__(self, seats: list[int]) -> None:
        self.seats = seats
        self.by_label = {f"p{k}": k for k in range(1, len(seats) + 1)}
        self.simple = _SIMPLE

    def k(self, token: str) -> int:
        k = self.by_label.get(token)
        if k is None:
            raise ValueError(f"{token!r} is not a player p1-p{len(self.seats)}")
        return k


def _step(
    hand: Hand,
    text: str,
    who: _Player,
    owed: dict[int, list[int]],
    dealing: bool,
    shows: dict[int, tuple[int, ...] | None],
) -> bool:
    timeout = False
    if "#" in text:
        body, _, note = text.partition("#")
        words = body.split()
        if not words:
            return dealing  # a comment
        timeout = note.strip().startswith(TIMEOUT_NOTE)
    else:
        words = text.split()
    if not words:
        return dealing
    if words[0] == "d":
        if len(words) != 4 or words[1] != "dh":
            raise ValueError("a deal is 'd dh pK CARDS'")
        k = who.k(words[2])
        cards = fast_cards(words[3])
        source = "the seed" if hand.seed is not None else "the deck"
        if dealing:
            have = hand.players[k - 1].original
            if cards != have and sorted(cards) != sorted(have):
                raise ValueError(_disagree(source, k, have, cards))
            return True
        due = owed.get(k, [])
        if len(cards) > len(due):
            raise ValueError(f"p{k} is due {len(due)} more cards, not {len(cards)}")
        got = due[: len(cards)]
        if sorted(got) != sorted(cards):
            raise ValueError(_disagree(source, k, got, cards))
        del due[: len(cards)]
        return False
    k = who.k(words[0])
    seat = who.seats[k - 1]
    if len(words) < 2:
        raise ValueError("an action is 'pK VERB [ARG]'")
    verb = words[1]
    if verb == "sm":
        _check_show(hand, k, seat, words[2] if len(words) > 2 else "", shows)
        return False
    legal = hand.legal_actions()
    if legal is None:
        raise ValueError("the hand is already over")
    if legal.seat != seat:
        other = who.seats.index(legal.seat) + 1
        raise ValueError(f"p{k} acts out of turn: p{other} (seat {legal.seat}) is to act")
    simple = who.simple
    if verb == "sd":
        if len(words) > 3:
            raise ValueError("a draw is 'pK sd [CARDS]'")
        if timeout:
            if len(words) > 2:
                raise ValueError("a timed-out player stands pat (R26)")
            action = simple[seat, "t"]
        elif len(words) > 2:
            action = Action.draw(seat, fast_cards(words[2]))
        else:
            action = simple[seat, "sd"]
        for e in hand.act(action):
            if type(e) is CardsReceived:
                owed.setdefault(who.seats.index(e.seat) + 1, []).extend(e.cards)
        return False
    if verb in ("ask", "decline"):  # R48: the request to see the openers
        if len(words) != 2:
            raise ValueError(f"malformed action (expected 'pK {verb}')")
        if not legal.ask_openers:
            raise ValueError(f"nobody may ask for the openers now; may {legal.describe()}")
        if timeout and verb == "ask":
            raise ValueError("a player who times out does not ask for the openers (R48)")
        hand.act(simple[seat, "t" if timeout else verb])
        return False
    if len(words) != (3 if verb == "cbr" else 2):
        raise ValueError("malformed action (expected 'pK f', 'pK cc' or 'pK cbr AMOUNT')")
    if verb == "cc":
        if timeout:
            if not legal.check:
                raise ValueError("a player who times out facing a bet folds (R47)")
            action = simple[seat, "t"]
        else:
            action = simple[seat, "x" if legal.check else "c"]
    elif verb == "f":
        if timeout:
            if legal.check:
                raise ValueError("a player who times out checks when they can (R47)")
            action = simple[seat, "t"]
        else:
            action = simple[seat, "f"]
    elif verb == "cbr":
        try:
            amount = int(words[2])
        except ValueError:
            raise ValueError(f"{words[2]!r} is not a whole number of chips") from None
        if not legal.min_to <= amount <= legal.max_to or legal.max_to == 0:
            _check_bet(hand, legal, amount)
        action = Action.bet(seat, amount)
    else:
        raise ValueError(f"unknown action {verb!r} (f, cc, cbr, sd, sm, ask, decline)")
    hand.act(action)
    return False


def _disagree(source: str, k: int, dealt: Any, written: Any) -> str:
    extra = [c for c in written if c not in dealt]
    missing = [c for c in dealt if c not in written]
    return (
        f"{source} deals p{k} {format_cards(dealt)}, the history says {format_cards(written)}"
        f" ({format_cards(extra)} instead of {format_cards(missing)})"
    )


def _check_bet(hand: Hand, legal: LegalActions, amount: int) -> None:
    rules = hand.rules
    label = legal.bet_label or "bet"
    if not legal.max_to:
        raise ValueError(f"may not bet or raise now; may {legal.describe()}")
    rule = "R39" if rules.is_italian else _RULE_OF[rules.structure]
    to = "" if label in ("bet", "open") else " to"
    if rules.is_fixed_limit and amount != legal.max_to:
        raise ValueError(f"fixed-limit {label} is{to} exactly {legal.max_to} ({rule})")
    if amount > legal.max_to:
        name = "italian" if rules.is_italian else str(rules.structure)
        raise ValueError(f"{name} maximum {label} is{to} {legal.max_to} ({rule})")
    if amount < legal.min_to:
        rule = "R39" if rules.is_italian else "R17"
        raise ValueError(f"minimum {label} is{to} {legal.min_to} ({rule})")


def _check_show(
    hand: Hand, k: int, seat: int, cards_text: str, shows: dict[int, tuple[int, ...] | None]
) -> None:
    if not hand.is_over and hand.street is not Street.OPENERS:
        raise ValueError("nothing is shown before the showdown (R21)")
    if not shows or not hand.is_over:  # R48: a forfeit may show a hand after a request
        shows.clear()
        for e in hand.events:
            if type(e) is HandShown:
                shows[e.seat] = e.cards
            elif type(e) is Mucked:
                shows[e.seat] = None
    if seat not in shows:
        raise ValueError(f"p{k} is not at the showdown")
    shown = shows[seat]
    if shown is None:
        if cards_text:
            raise ValueError(f"p{k} mucks at the showdown (R31)")
    elif cards_text and sorted(fast_cards(cards_text)) != sorted(shown):
        raise ValueError(f"p{k} holds {format_cards(shown)}")


# ------------------------------------------------------------------ summaries


def decision_point(hand: Hand) -> dict[str, Any]:
    """Who is to act and what they may do, with the pots, stacks and stub: plain data."""
    legal = hand.legal_actions()
    index = {p.seat: i + 1 for i, p in enumerate(hand.players)}
    seat_rows = [
        {
            "player": f"p{index[p.seat]}",
            "seat": p.seat,
            "stack": p.stack,
            "wager": p.wager,
            "committed": p.committed,
            "folded": p.folded,
            "all_in": p.all_in,
            "cards": format_cards(p.cards),
        }
        for p in hand.players
    ]
    players = hand.players
    # The pots formed so far: chips of finished rounds (this round's wagers are per seat).
    pots = build_pots(
        [p.committed - p.wager - p.dead for p in players],
        [not p.folded for p in players],
        [p.all_in for p in players],
        hand.carried_in + sum(p.dead for p in players),
    )
    out: dict[str, Any] = {
        "over": False,
        "street": str(hand.street),
        "pot": hand.pot_total,
        "pots": [
            {"amount": pot.amount, "eligible": [players[i].seat for i in pot.eligible]}
            for pot in pots
            if pot.amount
        ],
        "stub": len(hand.deck),
        "seats": seat_rows,
    }
    if legal is not None:
        out["to_act"] = {"player": f"p{index[legal.seat]}", "seat": legal.seat}
        if legal.draw:
            out["legal"] = {"draw": True, "max_discard": legal.max_discard,
                            "hand": format_cards(legal.hand)}  # fmt: skip
        elif legal.ask_openers:  # R48
            out["legal"] = {"ask_openers": True, "opener": legal.opener,
                            "penalty": legal.penalty}  # fmt: skip
        else:
            out["legal"] = {
                "fold": legal.fold,
                "check": legal.check,
                "call": legal.call,
                "call_all_in": legal.call_all_in,
                "bet_label": legal.bet_label,
                "min_to": legal.min_to,
                "max_to": legal.max_to,
            }
        out["legal_text"] = legal.describe()
    return out


def outcome(hand: Hand) -> dict[str, Any]:
    """A finished hand: final stacks, winnings, pots and rake: plain data."""
    result = hand.result
    index = {p.seat: i + 1 for i, p in enumerate(hand.players)}
    won = dict.fromkeys(index, 0)
    for _, shares in result.pots:
        for seat, chips in shares:
            won[seat] += chips
    return {
        "over": True,
        "seats": [
            {
                "player": f"p{index[p.seat]}",
                "seat": p.seat,
                "start": p.start,
                "stack": result.stacks[p.seat],
                "net": result.net[p.seat],
                "won": won[p.seat],
            }
            for p in hand.players
        ],
        "pots": [
            {"amount": amount, "shares": [{"seat": s, "chips": c} for s, c in shares]}
            for amount, shares in result.pots
        ],
        "rake": result.rake,
        "carried_pot": result.carried_pot,
        "showdown": result.showdown,
        "street": str(Street.OVER),
    }
