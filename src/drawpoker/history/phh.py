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

import datetime as dt
import json
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from typing import Any

from drawpoker.cards import DECK
from drawpoker.errors import DrawPokerError
from drawpoker.events import (
    BetPlaced,
    Called,
    CardsDelivered,
    CardsReceived,
    Checked,
    DeckRevealed,
    DiscardedCards,
    Folded,
    HandShown,
    HandStarted,
    Mucked,
    OpenersDeclined,
    OpenersRequested,
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
from drawpoker.history.info import HandInfo, Tournament
from drawpoker.history.openings import openings_for
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


_NAMES = (*(str(card) for card in DECK), "??")
_UNKNOWN = 52  # a card the viewer did not see, written ``??``


def _cards(cards: Iterable[int]) -> str:
    return "".join([_NAMES[c] for c in cards])


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


def _int_list(values: list[int]) -> str:
    return f"[{', '.join(map(str, values))}]"


def rules_table(rules: Rules) -> str:
    """Cached by identity: hashing a ``Rules`` costs more than looking it up."""
    hit = _TABLES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    text = _rules_table(rules)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, text)
    return text


_TABLES: dict[int, tuple[Rules, str]] = {}


@lru_cache(maxsize=64)
def _rules_table(rules: Rules) -> str:
    """``{max_seats = 8, rake_percent = '5'}``: the options that differ from the preset's
    defaults (``Rules.online()`` or ``Rules.italian()``, RULES.md); ``{}`` when none do."""
    base = Rules.italian() if rules.is_italian else Rules.online()
    parts = [
        f"{f.name} = {_toml_value(getattr(rules, f.name))}"
        for f in fields(rules)
        if f.init
        and f.name not in _RULES_SKIPPED
        and getattr(rules, f.name) != getattr(base, f.name)
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


# Event types the writer looks at, as small ints for one dictionary lookup per event.
_KIND: dict[type, int] = {
    CardsReceived: 0,
    CardsDelivered: 1,
    TimedOut: 2,
    DiscardedCards: 3,
    StoodPat: 4,
    Reshuffled: 5,
    Folded: 6,
    Checked: 7,
    Called: 7,
    BetPlaced: 8,
    Raised: 9,
    HandShown: 10,
    Mucked: 11,
    OpenersShown: 12,
    Posted: 13,
    PotAwarded: 14,
    DeckRevealed: 15,
    OpenersRequested: 16,
    OpenersDeclined: 17,
}
_DRAW_KINDS = frozenset({0, 1, 2, 3, 4, 5})  # a timeout in the draw stands pat


class _Walk:
    """What one pass over a hand's events gathers for the PHH document."""

    __slots__ = ("actions", "deck_commitments", "posted", "seed", "won")

    def __init__(self, hand: Hand, label: dict[int, str], viewer: int | None = None) -> None:
        posted: list[Posted] = []
        won: dict[int, int] = {}
        seed = ""
        roots: list[str] = []
        # A player's view: other seats' cards and discards become ``??`` (shown
        # hands stay), and the seed only if the table revealed it to everyone.
        hidden = (lambda seat: False) if viewer is None else (lambda seat: seat != viewer)
        out: list[str] = []
        add = out.append
        sds: list[str] = []
        dhs: list[tuple[int, tuple[int, ...]]] = []
        notes: list[str] = []
        dealt: set[int] = set()  # the first deal: what PokerKit's deck no longer holds
        in_draw = False
        delivered = False
        note = ""
        name = _NAMES.__getitem__
        kinds = _KIND.get
        draw_kinds = _DRAW_KINDS
        for e in hand.events:
            k = kinds(type(e))
            if k is None:
                continue
            if k == 0 or k == 3:
                if hidden(e.seat):  # type: ignore[attr-defined]
                    e = type(e)(  # type: ignore[call-arg]
                        seq=e.seq,
                        visible_to=e.visible_to,
                        seat=e.seat,  # type: ignore[attr-defined]
                        cards=(_UNKNOWN,) * len(e.cards),  # type: ignore[attr-defined]
                    )
            elif k == 15 and viewer is not None and not e.visible(viewer):
                continue
            if in_draw and k not in draw_kinds:
                out += _draw_lines(sds, dhs, notes, dealt, label, viewer is None)
                sds, dhs, notes = [], [], []
                in_draw = False
            if k == 7:
                add(f"{label[e.seat]} cc{note}")  # type: ignore[attr-defined]
                note = ""
            elif k == 0:
                if delivered:
                    dhs.append((e.seat, e.cards))  # type: ignore[attr-defined]
                    delivered = False
                else:
                    dealt.update(e.cards)  # type: ignore[attr-defined]
                    add(f"d dh {label[e.seat]} {''.join(map(name, e.cards))}")  # type: ignore[attr-defined]
            elif k == 6:
                add(f"{label[e.seat]} f{note}")  # type: ignore[attr-defined]
                note = ""
            elif k == 9:
                add(f"{label[e.seat]} cbr {e.to}")  # type: ignore[attr-defined]
            elif k == 8:
                add(f"{label[e.seat]} cbr {e.amount}")  # type: ignore[attr-defined]
            elif k == 1:
                delivered = True
            elif k == 3:
                text = "".join(map(name, e.cards))  # type: ignore[attr-defined]
                sds.append(f"{label[e.seat]} sd {text}{note}")  # type: ignore[attr-defined]
                note = ""
                in_draw = True
            elif k == 4:
                sds.append(f"{label[e.seat]} sd{note}")  # type: ignore[attr-defined]
                note = ""
                in_draw = True
            elif k == 10:
                add(f"{label[e.seat]} sm {''.join(map(name, e.cards))}")  # type: ignore[attr-defined]
            elif k == 13:
                posted.append(e)  # type: ignore[arg-type]
            elif k == 11:
                add(f"{label[e.seat]} sm")  # type: ignore[attr-defined]
            elif k == 14:
                for seat, chips in e.shares:  # type: ignore[attr-defined]
                    won[seat] = won.get(seat, 0) + chips
            elif k == 2:
                note = f" # {TIMEOUT_NOTE}"
            elif k == 5:
                roots.append(e.commitment)  # type: ignore[attr-defined]
                kept = e.excluded_seat  # type: ignore[attr-defined]
                notes.append(
                    f"# reshuffle: {e.size} cards"  # type: ignore[attr-defined]
                    + (f", the discards of {label[kept]} kept out" if kept else "")
                )
            elif k == 12:
                valid = "valid" if e.valid else "false openers"  # type: ignore[attr-defined]
                text = "".join(map(name, e.cards))  # type: ignore[attr-defined]
                add(f"# openers {label[e.seat]} {text} {valid}")  # type: ignore[attr-defined]
            elif k == 15:
                seed = e.seed  # type: ignore[attr-defined]
            elif k == 16:  # R48: asks to see the openers
                add(f"{label[e.seat]} ask")  # type: ignore[attr-defined]
            elif k == 17:  # R48: does not ask (a time-out declines)
                add(f"{label[e.seat]} decline{note}")  # type: ignore[attr-defined]
                note = ""
        if in_draw:
            out += _draw_lines(sds, dhs, notes, dealt, label, viewer is None)
        self.actions = out
        self.posted = posted
        self.won = won
        self.seed = seed
        self.deck_commitments = roots if any(roots) else []


def _draw_lines(
    sds: list[str],
    dhs: list[tuple[int, tuple[int, ...]]],
    notes: list[str],
    dealt: set[int],
    label: dict[int, str],
    reorder: bool = True,
) -> list[str]:
    """A draw: the discards, then the replacement deals.

    Without a reshuffle the deals keep the engine's order. After one they are
    ordered for PokerKit, which deals its stub to the last card before it reuses
    discards and warns about a card dealt otherwise: deals from its stub go first,
    and a deal that must reach into the discards is made larger than its stub."""
    if notes and reorder:  # a player's view keeps the engine's order (its cards are not all known)
        dhs = deal_order(dhs, dealt)
    return [*sds, *notes, *(f"d dh {label[k]} {_cards(cards)}" for k, cards in dhs)]


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


@dataclass(slots=True, kw_only=True)
class Record:
    """One hand as PHH holds it: typed fields and the ``actions`` strings.

    ``record(hand, info)`` builds it from the engine's events; ``render`` writes it as
    TOML. (PokerKit's ``HandHistory`` is the same kind of object.)"""

    variant: str
    antes: list[int]
    blinds_or_straddles: list[int]
    bets: tuple[int, ...]  # (min_bet,) or (small_bet, big_bet)
    starting_stacks: list[int]
    actions: list[str]
    hand: str = ""
    table: str = ""
    seats: list[int] = field(default_factory=list)
    seat_count: int = 0
    players: list[str] | None = None
    finishing_stacks: list[int] | None = None
    winnings: list[int] | None = None
    currency: str = ""
    currency_symbol: str = ""
    time: dt.datetime | None = None
    time_zone: str = ""
    button: int = 0
    rules: Rules = field(default_factory=Rules)
    posts: list[tuple[int, PostKind, int]] | None = None
    carried_in: int = 0
    commitment: str = ""
    rake: int | None = None
    carried_out: int = 0
    seed: str = ""
    time_text: str = ""
    tournament: Tournament | None = None
    deck_commitments: list[str] = field(default_factory=list)  # one per reshuffle
    openings: list[dict[str, Any]] = field(default_factory=list)  # the viewer's cards


_NO_INFO = HandInfo()


def _default_kinds(rules: Rules, n: int, button_index: int) -> tuple[tuple[int, PostKind], ...]:
    """``default_posts`` by player index (cached: tables post the same way every hand)."""
    key = (id(rules), n, button_index)
    hit = _KINDS_CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    kinds = tuple(default_posts(rules, list(range(n)), button_index))
    if len(_KINDS_CACHE) > 1024:
        _KINDS_CACHE.clear()
    _KINDS_CACHE[key] = (rules, kinds)
    return kinds


_KINDS_CACHE: dict[tuple[int, int, int], tuple[Rules, tuple[tuple[int, PostKind], ...]]] = {}


def record(hand: Hand, info: HandInfo | None = None, *, viewer: int | None = None) -> Record:
    """The PHH record of a hand (finished or not) from its events: the archive, or
    with ``viewer`` (a seat) what that player saw, with the openings of their cards
    (``drawpoker.fairness``) once the hand is over."""
    info = info or _NO_INFO
    rules = hand.rules
    players = hand.players
    n = len(players)
    order = [p.seat for p in players]
    label = {seat: f"p{i}" for i, seat in enumerate(order, 1)}
    index = {seat: i for i, seat in enumerate(order)}
    walk = _Walk(hand, label, viewer)
    started = hand.events[0]
    assert isinstance(started, HandStarted)
    posted = walk.posted
    actual = tuple((index[e.seat], e.kind) for e in posted)
    explicit = actual != _default_kinds(rules, n, index.get(hand.button, -1))
    antes = [0] * n
    blinds = [0] * n
    for e in posted:
        amount = _nominal(rules, e.kind, e.amount, explicit)
        if e.kind in DEAD_POSTS:
            antes[index[e.seat]] += amount
        else:
            blinds[index[e.seat]] += amount
    if n == 2:  # PokerKit reads heads-up forced bets in reverse
        antes.reverse()
        blinds.reverse()
    over = hand.is_over
    won = walk.won
    return Record(
        variant=variant_of(rules),
        antes=antes,
        blinds_or_straddles=blinds,
        bets=rules.bet_sizes if rules.is_fixed_limit else (rules.min_bet,),
        starting_stacks=[p.start for p in players],
        actions=walk.actions,
        hand=hand.hand_id,
        table=info.table,
        seats=order,
        seat_count=rules.max_seats,
        players=[info.name(s) for s in order] if info.names else None,
        finishing_stacks=[p.stack for p in players] if over else None,
        winnings=[won.get(s, 0) for s in order] if over else None,
        currency=info.currency,
        currency_symbol=info.currency_symbol,
        time=info.time,
        time_zone=info.time_zone,
        button=hand.button,
        rules=rules,
        posts=[(e.seat, e.kind, e.amount) for e in posted if e.kind is not PostKind.ANTE]
        if explicit
        else None,
        carried_in=started.carried_pot,
        commitment=started.commitment or info.commitment,
        rake=hand.rake if over else None,
        carried_out=hand.carried_out if over else 0,
        seed=walk.seed,
        time_text=info.time_text,
        tournament=info.tournament,
        deck_commitments=walk.deck_commitments,
        openings=[o.to_dict() for o in openings_for(hand, viewer)]
        if viewer is not None and over
        else [],
    )


def render(r: Record) -> str:
    """A record as a ``.phh`` document (TOML, written by hand: exact and fast)."""
    bets = (
        f"min_bet = {r.bets[0]}"
        if len(r.bets) == 1
        else f"small_bet = {r.bets[0]}\nbig_bet = {r.bets[1]}"
    )
    actions = "', '".join(r.actions)  # our action strings need no escaping
    out = (
        f"variant = '{r.variant}'\nantes = {_int_list(r.antes)}\n"
        f"blinds_or_straddles = {_int_list(r.blinds_or_straddles)}\n{bets}\n"
        f"starting_stacks = {_int_list(r.starting_stacks)}\n"
        + (f"actions = ['{actions}']\n" if actions else "actions = []\n")
    )
    if r.hand:
        out += f"hand = {toml_str(r.hand)}\n"
    if r.table:
        out += f"table = {toml_str(r.table)}\n"
    out += f"seats = {_int_list(r.seats)}\nseat_count = {r.seat_count}\n"
    if r.players is not None:
        out += "players = [" + ", ".join([toml_str(x) for x in r.players]) + "]\n"
    if r.finishing_stacks is not None:
        out += f"finishing_stacks = {_int_list(r.finishing_stacks)}\n"
    if r.winnings is not None:
        out += f"winnings = {_int_list(r.winnings)}\n"
    if r.currency:
        out += f"currency = {toml_str(r.currency)}\n"
    if r.currency_symbol:
        out += f"currency_symbol = {toml_str(r.currency_symbol)}\n"
    if r.time is not None:
        t = r.time
        out += f"time = {t:%H:%M:%S}\nday = {t.day}\nmonth = {t.month}\nyear = {t.year}\n"
    if r.time_zone:
        out += f"time_zone = {toml_str(r.time_zone)}\n"
    out += f"_button = {r.button}\n_rules = {rules_table(r.rules)}\n"
    if r.posts is not None:
        posts = ", ".join([f"[{seat}, '{kind}', {amount}]" for seat, kind, amount in r.posts])
        out += f"_posts = [{posts}]\n"
    if r.carried_in:
        out += f"_carried_in = {r.carried_in}\n"
    if r.commitment:
        out += f"_commitment = {toml_str(r.commitment)}\n"
    if r.deck_commitments:
        out += f"_deck_commitments = [{', '.join(map(toml_str, r.deck_commitments))}]\n"
    if r.rake is not None:
        out += f"_rake = {r.rake}\n"
    if r.carried_out:
        out += f"_carried_out = {r.carried_out}\n"
    if r.seed:
        out += f"_seed = '{r.seed}'\n"
    if r.openings:
        out += "_openings = [\n" + "".join([_opening(o) for o in r.openings]) + "]\n"
    if r.time_text:
        out += f"_time_text = {toml_str(r.time_text)}\n"
    if r.tournament is not None:
        tour = r.tournament
        out += (
            f"_tournament = {{id = {toml_str(tour.id)}, buy_in = {toml_str(tour.buy_in)}, "
            f"fee = {toml_str(tour.fee)}, level = {tour.level}}}\n"
        )
    return out


def _opening(o: dict[str, Any]) -> str:
    path = ", ".join([f"'{h}'" for h in o["path"]])
    return (
        f"  {{seat = {o['seat']}, deck = {o['deck']}, position = {o['position']}, "
        f"card = '{o['card']}', salt = '{o['salt']}', path = [{path}]}},\n"
    )


def dumps(hand: Hand | Record, info: HandInfo | None = None, *, viewer: int | None = None) -> str:
    """One hand (or its record) as a ``.phh`` document (``viewer``: see ``record``)."""
    return render(hand if isinstance(hand, Record) else record(hand, info, viewer=viewer))


def render_all(records: Iterable[Record]) -> str:
    """Records as a ``.phhs`` document: tables ``[1]``, ``[2]``, ..."""
    return "\n".join([f"[{i}]\n{render(r)}" for i, r in enumerate(records, 1)])


def dumps_all(hands: Iterable[Hand | Record | tuple[Hand, HandInfo | None]]) -> str:
    """Many hands as a ``.phhs`` document: tables ``[1]``, ``[2]``, ..."""
    records = []
    for item in hands:
        if isinstance(item, tuple):
            records.append(record(item[0], item[1]))
        else:
            records.append(item if isinstance(item, Record) else record(item))
    return render_all(records)


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
