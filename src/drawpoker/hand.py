"""One hand of 5-Card Draw as a state machine (RULES.md R1-R47).

Pure: no I/O, no clock, no global randomness. A hand starts from the rules, the
seats with their stacks, the button and a deck (from a seed, or stacked in
tests); it posts the forced bets and deals at once. Then ``legal_actions()``
says what the player to act may do, ``validate(action)`` checks an action
without applying it, and ``act(action)`` applies it and returns the events it
caused. An illegal action raises ``IllegalAction`` and leaves the hand as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from drawpoker.actions import Action, ActionKind
from drawpoker.cards import format_cards
from drawpoker.deck import Deck, commitment
from drawpoker.errors import IllegalAction, InvalidConfig
from drawpoker.evaluator import evaluate
from drawpoker.events import (
    EVERYONE,
    SERVER,
    BetPlaced,
    BettingRoundEnded,
    Called,
    CardBurned,
    CardsDealt,
    CardsDelivered,
    CardsReceived,
    Checked,
    DeckRevealed,
    Discarded,
    DiscardedCards,
    Event,
    Folded,
    HandEnded,
    HandShown,
    HandStarted,
    Mucked,
    OpenersDeclined,
    OpenersRequested,
    OpenersShown,
    PenaltyPaid,
    Posted,
    PostKind,
    PotAwarded,
    PotCarried,
    Raised,
    RakeTaken,
    Reshuffled,
    StoodPat,
    Street,
    TimedOut,
    UncalledBetReturned,
    positional_maker,
)
from drawpoker.fairness import Deal
from drawpoker.fairness import root as deck_root
from drawpoker.legal import LegalActions
from drawpoker.pots import Pot, build_pots, rake_for, rake_pots, split
from drawpoker.rules import OpenersCheck, Reveal, Rules

# Enum members as module constants: ``Street.DRAW`` is looked up through the enum
# metaclass, ten times slower than a global, and the hot paths read them often.
_PRE_DRAW, _DRAW, _POST_DRAW = Street.PRE_DRAW, Street.DRAW, Street.POST_DRAW
_SHOWDOWN, _OPENERS, _OVER = Street.SHOWDOWN, Street.OPENERS, Street.OVER
_FOLD, _CHECK, _CALL, _BET = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET
_DISCARD, _TIMEOUT = ActionKind.DRAW, ActionKind.TIMEOUT
_ASK, _DECLINE = ActionKind.ASK_OPENERS, ActionKind.DECLINE
_BIG_BLIND, _DEAD_SMALL_BLIND = PostKind.BIG_BLIND, PostKind.DEAD_SMALL_BLIND
_LIVE_POSTS = (PostKind.SMALL_BLIND, PostKind.BIG_BLIND)
_ALL_CARDS = list(range(52))

# Fast positional constructors: make(seq, visible_to, *the event's own fields).
_HAND_STARTED = positional_maker(HandStarted)
_POSTED = positional_maker(Posted)
_CARDS_DEALT = positional_maker(CardsDealt)
_CARDS_RECEIVED = positional_maker(CardsReceived)
_FOLDED = positional_maker(Folded)
_CHECKED = positional_maker(Checked)
_CALLED = positional_maker(Called)
_BET_PLACED = positional_maker(BetPlaced)
_RAISED = positional_maker(Raised)
_TIMED_OUT = positional_maker(TimedOut)
_BETTING_ROUND_ENDED = positional_maker(BettingRoundEnded)
_UNCALLED_BET_RETURNED = positional_maker(UncalledBetReturned)
_CARD_BURNED = positional_maker(CardBurned)
_STOOD_PAT = positional_maker(StoodPat)
_DISCARDED = positional_maker(Discarded)
_DISCARDED_CARDS = positional_maker(DiscardedCards)
_RESHUFFLED = positional_maker(Reshuffled)
_CARDS_DELIVERED = positional_maker(CardsDelivered)
_HAND_SHOWN = positional_maker(HandShown)
_MUCKED = positional_maker(Mucked)
_OPENERS_SHOWN = positional_maker(OpenersShown)
_OPENERS_REQUESTED = positional_maker(OpenersRequested)
_OPENERS_DECLINED = positional_maker(OpenersDeclined)
_PENALTY_PAID = positional_maker(PenaltyPaid)
_RAKE_TAKEN = positional_maker(RakeTaken)
_POT_AWARDED = positional_maker(PotAwarded)
_POT_CARRIED = positional_maker(PotCarried)
_DECK_REVEALED = positional_maker(DeckRevealed)
_HAND_ENDED = positional_maker(HandEnded)


class _Player:
    """One seat dealt into the hand. Index ``i`` in the hand counts clockwise
    from the first seat left of the button."""

    __slots__ = (
        "acted",
        "all_in",
        "cards",
        "committed",
        "dead",
        "discards",
        "drew",
        "faced",
        "folded",
        "full_raises_seen",
        "index",
        "original",
        "owed",
        "penalized",
        "seat",
        "stack",
        "start",
        "thrown",
        "wager",
    )

    def __init__(self, index: int, seat: int, stack: int) -> None:
        self.index = index
        self.seat = seat
        self.start = stack
        self.stack = stack  # chips behind
        self.wager = 0  # live chips in front this round
        self.committed = 0  # everything put in this hand, dead posts included
        self.dead = 0  # of which a dead small blind: counts for no pot level (R34)
        self.cards: list[int] = []
        self.original: tuple[int, ...] = ()
        self.discards: list[int] = []  # own discards not yet reshuffled
        self.thrown: set[int] = set()  # every card this player discarded
        self.drew: int | None = None  # cards discarded in the draw; None: not yet
        self.owed = 0  # replacements still due after the others draw (R23)
        self.folded = False
        self.all_in = False
        self.acted = False  # acted this round
        self.faced = 0  # the highest wager right after this player's last action
        self.full_raises_seen = 0  # fixed limit: full bets/raises when it last acted
        self.penalized = False  # R26


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand left the table."""

    stacks: dict[int, int]  # seat -> final stack
    net: dict[int, int]  # seat -> final stack minus starting stack
    rake: int
    carried_pot: int  # stays on the table for the next hand (Italian)
    pots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (amount after rake, shares)
    reached_draw: bool
    showdown: bool


class Hand:
    """One hand. See the module docstring; ``Hand.__init__`` deals at once."""

    # Slots: attribute reads on the hot paths are direct (a hand has more attributes than
    # CPython shares keys for in an instance dict).
    __slots__ = (
        "_able_count",
        "_ask_pos",
        "_askers",
        "_awards",
        "_bets",
        "_big_blind_index",
        "_by_seat",
        "_capped",
        "_commit",
        "_discard_pile",
        "_draw_order",
        "_draw_pos",
        "_events",
        "_explicit_posts",
        "_first_seq",
        "_folded_cards",
        "_full_raises",
        "_highest",
        "_in_pot",
        "_last_aggressor",
        "_legal",
        "_live",
        "_middle_extra",
        "_min_raise",
        "_opener",
        "_pending",
        "_seat_order",
        "_second_round_played",
        "_to_act",
        "button",
        "carried_in",
        "carried_out",
        "deal",
        "deck",
        "hand_id",
        "players",
        "rake",
        "reached_draw",
        "reshuffles",
        "reveal_seed",
        "rules",
        "seed",
        "showdown",
        "street",
    )

    def __init__(
        self,
        rules: Rules,
        stacks: Mapping[int, int] | Iterable[tuple[int, int]],
        button: int,
        *,
        seed: bytes | None = None,
        deck: Deck | None = None,
        carried_pot: int = 0,
        posts: Sequence[tuple[int, PostKind, int]] | None = None,
        hand_id: str = "",
        first_seq: int = 1,
        reveal_seed: bool = False,
        deal: Deal | None = None,
        commit: bool = True,
    ) -> None:
        self.rules = rules
        self.hand_id = hand_id
        self.button = button
        self.seed = seed
        # The seed rebuilds every card, folded hands too: it goes to everyone only
        # at a table that chose to reveal it (docs/fairness.md), else to the server.
        self.reveal_seed = reveal_seed
        self.deal = deal
        # The deck commitments (a Merkle root per deck, docs/fairness.md) cost about
        # as much as playing the hand: simulations that publish nothing skip them.
        self._commit = commit
        self._events: list[Event] = []
        self._first_seq = first_seq  # the next seq is first_seq + len(self._events)
        pairs = sorted(stacks.items() if isinstance(stacks, Mapping) else stacks)
        self._validate_setup(pairs, button, carried_pot, seed, deck)
        self._seat_order = [_Player(0, seat, stack) for seat, stack in pairs]  # seat order
        # Clockwise from left of the button: the seat order, rotated.
        left = next((k for k, (seat, _) in enumerate(pairs) if seat > button), 0)
        self.players = players = self._seat_order[left:] + self._seat_order[:left]
        for i, p in enumerate(players):
            p.index = i
        self._by_seat = {p.seat: p for p in players}
        # Kept as chips and flags change (check_invariants recounts them):
        self._live = len(self.players)  # players not folded
        self._able_count = len(self.players)  # players neither folded nor all in
        self._in_pot = 0  # the sum of the players' committed chips
        self.deck = deck if deck is not None else Deck.from_seed(cast(bytes, seed))
        self.carried_in = carried_pot
        self._middle_extra = carried_pot  # carried chips still in the middle
        self.street = _PRE_DRAW
        self._to_act: int | None = None
        self._highest = 0
        self._min_raise = 0
        self._bets = 0  # fixed limit: bet plus full raises this round
        self._capped = False
        self._full_raises = 0
        self._last_aggressor: int | None = None
        self._opener: int | None = None
        self._big_blind_index: int | None = None
        self._discard_pile: list[int] = []  # others' discards and burns, reshuffle-eligible
        self._folded_cards: list[int] = []
        self.rake = 0
        self.carried_out = 0
        self.reached_draw = False
        self.showdown = False
        self.reshuffles = 0
        self._awards: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        self._second_round_played = False
        # R48: the end of the hand waiting for the requests to see the openers.
        self._pending: tuple[list[Pot], list[list[int]], bool, str] | None = None
        self._askers: list[int] = []
        self._ask_pos = 0
        self._legal: LegalActions | None = None  # cached until the next action
        self._explicit_posts = self._check_posts(posts)
        self._start()

    # ----------------------------------------------------------------- set-up

    def _validate_setup(
        self,
        pairs: list[tuple[int, int]],
        button: int,
        carried_pot: int,
        seed: bytes | None,
        deck: Deck | None,
    ) -> None:
        max_seats = self.rules.max_seats
        if not 2 <= len(pairs) <= max_seats:
            raise InvalidConfig(f"a hand needs 2 to {max_seats} players, got {len(pairs)} (R2)")
        seen = set()
        for seat, stack in pairs:
            if type(seat) is not int or not 1 <= seat <= max_seats:
                raise InvalidConfig(f"seat {seat!r} is not a seat 1-{max_seats}")
            if seat in seen:
                raise InvalidConfig(f"seat {seat} is given twice")
            seen.add(seat)
            if type(stack) is not int or stack < 1:
                raise InvalidConfig(f"seat {seat} needs a stack of at least 1 chip, has {stack!r}")
        if type(button) is not int or not 1 <= button <= max_seats:
            raise InvalidConfig(f"button {button!r} is not a seat 1-{max_seats}")
        if type(carried_pot) is not int or carried_pot < 0:
            raise InvalidConfig(f"carried_pot must be a non-negative int, got {carried_pot!r}")
        if (seed is None) == (deck is None):
            raise InvalidConfig("give exactly one of seed (production) or deck (tests)")
        if self.deal is not None and self.deal.seed != seed:
            raise InvalidConfig("the deal's seed is not the hand's seed")

    def _check_posts(
        self, posts: Sequence[tuple[int, PostKind, int]] | None
    ) -> list[tuple[int, PostKind, int]] | None:
        """Forced bets the room chose (dead button, missed blinds, a new player's big blind)."""
        if posts is None:
            return None
        checked = []
        for seat, kind, amount in posts:
            if seat not in self._by_seat:
                raise InvalidConfig(f"post by seat {seat}, which is not dealt in")
            if type(amount) is not int or amount < 1:
                raise InvalidConfig(f"post of {amount!r} by seat {seat}: must be a positive int")
            checked.append((seat, PostKind(kind), amount))
        return checked

    def _start(self) -> None:
        rules = self.rules
        deal = self.deal
        self._emit(
            _HAND_STARTED,
            EVERYONE,
            self.hand_id,
            self.button,
            tuple([(p.seat, p.stack) for p in self._seat_order]),
            self.carried_in,
            commitment(self.seed) if self.seed is not None and self._commit else "",
            deal.commitment if deal is not None else "",
            deal.entropy if deal is not None else (),
            deal.next_commitment if deal is not None else "",
        )
        for index, kind, amount in self._forced_bets():
            self._post(self.players[index], kind, amount)
        if rules.is_italian:
            self._min_raise = rules.invito
        elif rules.is_fixed_limit:
            self._min_raise = rules.bet_sizes[0]
        else:
            self._min_raise = rules.big_blind
        self._deal()
        # R10: left of the big blind; without blinds, left of the button.
        self._begin_betting(0 if self._big_blind_index is None else self._big_blind_index + 1)

    def _forced_bets(self) -> list[tuple[int, PostKind, int]]:
        """(player index, kind, amount) in posting order."""
        rules = self.rules
        n = len(self.players)
        if rules.is_italian:
            dealer = next((i for i, p in enumerate(self.players) if p.seat == self.button), n - 1)
            others = rules.invito_for_others()
            posts = [(dealer, PostKind.INVITO, rules.invito)]
            posts += [(i, PostKind.INVITO, others) for i in range(n) if i != dealer and others]
            return posts
        posts = [(i, PostKind.ANTE, rules.antes) for i in range(n)] if rules.antes else []
        if self._explicit_posts is not None:
            index = {p.seat: i for i, p in enumerate(self.players)}
            return posts + [
                (index[seat], kind, amount) for seat, kind, amount in self._explicit_posts
            ]
        if rules.big_blind:
            if n == 2:  # heads-up: the button posts the small blind (R6)
                sb, bb = (1, 0) if self.players[1].seat == self.button else (0, 1)
            else:
                sb, bb = 0, 1
            if rules.small_blind:
                posts.append((sb, PostKind.SMALL_BLIND, rules.small_blind))
            posts.append((bb, _BIG_BLIND, rules.big_blind))
        return posts

    def _post(self, p: _Player, kind: PostKind, amount: int) -> None:
        amount = min(amount, p.stack)
        if not amount and kind is not _BIG_BLIND:
            return  # all in on an earlier post: nothing left to post
        p.stack -= amount
        p.committed += amount
        self._in_pot += amount
        if kind is _DEAD_SMALL_BLIND:
            p.dead += amount
        elif kind in _LIVE_POSTS:
            p.wager += amount
            if kind is _BIG_BLIND:
                if self._big_blind_index is None:
                    self._big_blind_index = p.index
                # R8: the full big blind is what others must call, even if posted short.
                self._highest = max(self._highest, self.rules.big_blind)
                self._bets = 1
            self._highest = max(self._highest, p.wager)
        if p.stack == 0 and not p.all_in:
            p.all_in = True
            self._able_count -= 1
        self._emit(_POSTED, EVERYONE, p.seat, kind, amount, p.all_in)

    def _deal(self) -> None:
        """R3: five cards each, one at a time, clockwise from left of the button."""
        players = self.players
        n = len(players)
        dealt = self.deck.deal(5 * n)
        for i, p in enumerate(players):
            p.cards = dealt[i::n]
            p.original = tuple(p.cards)
        events = self._events
        seq = self._first_seq + len(events)
        events.append(_CARDS_DEALT(seq, EVERYONE, tuple([p.seat for p in players]), 5))
        for p in players:
            seq += 1
            events.append(_CARDS_RECEIVED(seq, p.seat, p.seat, p.original))

    # ------------------------------------------------------------------ queries

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def next_seq(self) -> int:
        return self._first_seq + len(self._events)

    @property
    def is_over(self) -> bool:
        return self.street is _OVER

    @property
    def on_draw_clock(self) -> bool:
        """Is the player to act on the draw clock (R26: the draw; R48: the request to
        see the openers)? Otherwise the action clock."""
        street = self.street
        return street is _DRAW or street is _OPENERS

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return None if self._to_act is None else self.players[self._to_act].seat

    @property
    def pot_total(self) -> int:
        """Every chip in the middle (wagers of this round and a carried pot included)."""
        return self._in_pot + self._middle_extra

    def player(self, seat: int) -> _Player:
        try:
            return self._by_seat[seat]
        except KeyError:
            raise IllegalAction(f"seat {seat} is not dealt into this hand") from None

    def cards(self, seat: int) -> tuple[int, ...]:
        return tuple(self.player(seat).cards)

    def stack(self, seat: int) -> int:
        return self.player(seat).stack

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, with exact amounts; None when the hand is over."""
        legal = self._legal
        if legal is None and self._to_act is not None:
            legal = self._legal = self._compute_legal_actions()
        return legal

    def _compute_legal_actions(self) -> LegalActions:
        p = self.players[self._to_act]  # type: ignore[index]
        street = self.street
        if street is _DRAW:
            return LegalActions(  # seat, street, then as LegalActions lists its fields
                p.seat, street, False, False, 0, False, 0, 0, "", True,
                self.rules.max_discard, tuple(p.cards),
            )  # fmt: skip
        if street is _OPENERS:
            opener = self.players[self._opener]  # type: ignore[index]
            return LegalActions(
                p.seat, street, False, False, 0, False, 0, 0, "", False, 0, (),
                True, opener.seat, self._penalty(opener),
            )  # fmt: skip
        highest = self._highest
        stack = p.stack
        to_call = highest - p.wager
        if to_call > stack:
            to_call = stack
        opening = highest == 0 and self.rules.is_italian and street is _PRE_DRAW
        span = self._bet_span(p, opening)
        if span is None:
            low = high = 0
            label = ""
        else:
            low, high = span
            if highest == 0:
                label = "open" if opening else "bet"
            elif self._bets == 0 and self.rules.is_fixed_limit:
                label = "complete"
            else:
                label = "raise"
        return LegalActions(
            p.seat, street, not opening, to_call <= 0, to_call if to_call > 0 else 0,
            0 < to_call == stack, low, high, label, False, 0, (),
        )  # fmt: skip

    def _able(self) -> int:
        """Players who can still wager: neither folded nor all in."""
        return self._able_count

    def _bet_span(self, p: _Player, opening: bool) -> tuple[int, int] | None:
        """(min, max) total the player may bet or raise to, or None (``opening``: R38)."""
        rules = self.rules
        highest = self._highest
        all_in_to = p.wager + p.stack
        if all_in_to <= highest:
            return None
        if p.penalized and self.street is _POST_DRAW:
            return None  # R26
        for q in self.players:
            if q is not p and not q.folded and q.wager + q.stack > highest:
                break
        else:
            return None  # nobody left who could call more
        if opening and rules.openers_check is OpenersCheck.SERVER and not self._has_openers(p):
            return None  # R44: only a player with openers is offered the open
        if rules.is_fixed_limit:
            if p.acted and p.full_raises_seen == self._full_raises:
                return None  # R16: not reopened since this player acted
            limit = 1 + rules.fl_max_raises
            if self._bets >= limit and (
                self._capped or not rules.fl_cap_lifted_heads_up or self._able() > 2
            ):
                return None  # R15: capped
            unit = rules.bet_sizes[0 if self.street is _PRE_DRAW else 1]
            to = unit if self._bets == 0 else highest + unit
            to = min(to, all_in_to)
            return to, to
        if p.acted and highest - p.faced < self._min_raise:
            return None  # R19: a short all-in raise does not reopen the betting
        pot = self._in_pot + self._middle_extra
        if highest == 0:
            low = rules.min_bet
            high = pot if rules.is_pot_limit else all_in_to
        else:
            low = highest + self._min_raise
            to_call = highest - p.wager
            if rules.is_italian:  # R39
                high = highest + rules.raise_pot_multiple * (pot + to_call)
            elif rules.is_pot_limit:  # R18
                high = highest + pot + to_call
            else:
                high = all_in_to
        if low > all_in_to:
            low = all_in_to
        if high < low:
            high = low
        return low, high if high < all_in_to else all_in_to

    def _has_openers(self, p: _Player) -> bool:
        """R38: a pair of ``openers`` or better in the original five cards."""
        value = evaluate(p.original)
        if value.category > 2:
            return True
        if value.category < 2:
            return False
        pair_rank = next(r for r, k in Counter([c >> 2 for c in p.original]).items() if k == 2)
        return pair_rank >= self.rules.openers_rank

    # ------------------------------------------------------------------ actions

    def validate(self, action: Action) -> None:
        """Raise ``IllegalAction`` if ``action`` may not be applied now; change nothing."""
        refusal = self._refusal(action)
        if refusal is not None:
            raise IllegalAction(f"seat {action.seat} ({self.street}){refusal}")

    def _refusal(self, action: Action) -> str | None:
        """Why ``action`` is refused (to follow "seat N (street)"), or None."""
        legal = self.legal_actions()
        if legal is None:
            return ": the hand is over"
        if action.seat != legal.seat:
            if action.seat not in self._by_seat:
                return ": not dealt into this hand"
            return f": not your turn, seat {legal.seat} is to act"
        kind = action.kind
        if kind is _TIMEOUT:
            return None
        if legal.ask_openers:
            if kind is _ASK or kind is _DECLINE:
                return None
            return f": the hand is over; may {legal.describe()}, not {kind}"
        if kind is _ASK or kind is _DECLINE:
            return f": nobody may ask for the openers now; may {legal.describe()}"
        if legal.draw:
            if kind is not _DISCARD:
                return f": it is the draw; {legal.describe()}, not {kind}"
            if len(action.cards) > legal.max_discard:
                return f": may discard at most {legal.max_discard} cards, not {len(action.cards)}"
            missing = [c for c in action.cards if c not in legal.hand]
            if missing:
                return f": does not hold {format_cards(missing)}"
            return None
        if kind is _DISCARD:
            return f": no drawing now; may {legal.describe()}"
        if kind is _FOLD and not legal.fold:
            return f": nobody has opened, pass or open; may {legal.describe()}"
        if kind is _CHECK and not legal.check:
            return f": cannot check facing a bet; may {legal.describe()}"
        if kind is _CALL and not legal.call:
            return f": nothing to call; may {legal.describe()}"
        if kind is _BET:
            if not legal.max_to:
                return f": may not bet or raise now; may {legal.describe()}"
            if not legal.min_to <= action.amount <= legal.max_to:
                low, high = legal.min_to, legal.max_to
                span = f"{low}" if low == high else f"{low}–{high}"
                to = "" if legal.bet_label in ("bet", "open") else " to"
                return f" may {legal.bet_label}{to} {span}, not {action.amount}"
        return None

    def act(self, action: Action) -> list[Event]:
        """Apply a legal action; return the events it caused."""
        legal = self._legal or self.legal_actions()  # usually computed for the caller already
        kind = action.kind
        if not (  # the usual actions are checked here; the rest (and refusals) by _refusal
            legal is not None
            and action.seat == legal.seat
            and (
                (kind is _CALL and legal.call)
                or (kind is _CHECK and legal.check)
                or (kind is _BET and legal.min_to <= action.amount <= legal.max_to)
                or (kind is _FOLD and legal.fold)
                or (
                    kind is _DISCARD
                    and legal.draw
                    and len(action.cards) <= legal.max_discard
                    and set(legal.hand).issuperset(action.cards)
                )
            )
        ):
            refusal = self._refusal(action)  # validate(), inlined
            if refusal is not None:
                raise IllegalAction(f"seat {action.seat} ({self.street}){refusal}")
        self._legal = None
        events = self._events
        start = len(events)
        p = self.players[self._to_act]  # type: ignore[index]
        if kind is _CALL:
            self._call(p)
        elif kind is _CHECK:
            self._check(p)
        elif kind is _BET:
            self._bet(p, action.amount)
        elif kind is _FOLD:
            self._fold(p)
        elif kind is _DISCARD:
            self._draw(p, action.cards)
        elif kind is _ASK:
            self._ask(p)
        elif kind is _DECLINE:
            self._decline(p)
        else:  # TIMEOUT
            street = self.street
            penalized = street is _DRAW and self.rules.draw_timeout_penalty
            self._emit(_TIMED_OUT, EVERYONE, p.seat, street, penalized)
            if street is _DRAW:
                p.penalized = penalized
                self._draw(p, ())
            elif street is _OPENERS:  # R48: the draw clock ran out: no request
                self._decline(p)
            elif p.wager >= self._highest:
                self._check(p)
            else:
                self._fold(p)
        return events[start:]

    def apply(self, actions: Iterable[Action]) -> list[Event]:
        """Apply several actions in order."""
        events: list[Event] = []
        for action in actions:
            events += self.act(action)
        return events

    # ---------------------------------------------------------------- betting

    def _begin_betting(self, first: int) -> None:
        for p in self.players:
            p.acted = False
            p.faced = 0
            p.full_raises_seen = 0
        self._to_act = None
        self._advance(first)

    def _advance(self, start: int) -> None:
        """Pass the turn to the first player from index ``start`` (mod n) clockwise
        who needs to act, or end the round."""
        players = self.players
        highest = self._highest
        able = self._able_count
        if self._live == 1 or able == 0:
            self._end_round()
            return
        if able == 1:  # the one player who can still wager, if matched, has nobody to face
            last = next(p for p in players if not p.folded and not p.all_in)
            if last.wager >= highest:
                self._end_round()
                return
        n = len(players)
        i = start % n
        for _ in range(n):
            if i >= n:
                i -= n
            p = players[i]
            if not p.folded and not p.all_in and (not p.acted or p.wager < highest):
                self._to_act = i
                return
            i += 1
        self._end_round()

    def _after_action(self, p: _Player) -> None:
        p.acted = True
        p.faced = self._highest
        p.full_raises_seen = self._full_raises
        self._advance(p.index + 1)

    def _fold(self, p: _Player) -> None:
        p.folded = True
        self._live -= 1
        if not p.all_in:
            self._able_count -= 1
        self._folded_cards += p.cards
        p.cards = []
        events = self._events
        events.append(_FOLDED(self._first_seq + len(events), EVERYONE, p.seat))
        self._after_action(p)

    def _check(self, p: _Player) -> None:
        events = self._events
        events.append(_CHECKED(self._first_seq + len(events), EVERYONE, p.seat))
        self._after_action(p)

    def _call(self, p: _Player) -> None:
        amount = self._highest - p.wager
        if amount >= p.stack:
            amount = p.stack
            if not p.all_in:
                p.all_in = True
                self._able_count -= 1
        p.stack -= amount
        p.wager += amount
        p.committed += amount
        self._in_pot += amount
        events = self._events
        events.append(_CALLED(self._first_seq + len(events), EVERYONE, p.seat, amount, p.all_in))
        self._after_action(p)

    def _put(self, p: _Player, amount: int) -> None:
        p.stack -= amount
        p.wager += amount
        p.committed += amount
        self._in_pot += amount
        if p.stack == 0 and not p.all_in:
            p.all_in = True
            self._able_count -= 1

    def _bet(self, p: _Player, to: int) -> None:
        rules = self.rules
        highest = self._highest
        first_bet = highest == 0 or (rules.is_fixed_limit and self._bets == 0)
        self._put(p, to - p.wager)
        increment = to - highest
        if rules.is_fixed_limit:
            unit = rules.bet_sizes[0 if self.street is _PRE_DRAW else 1]
            # R16: an all-in wager of at least half a bet over the highest counts in full;
            # completing a short all-in bet is the round's bet.
            full = not p.all_in or 2 * increment >= unit or (first_bet and to >= unit)
        else:
            full = increment >= self._min_raise
        self._highest = to
        if full:
            self._full_raises += 1
            if rules.is_fixed_limit:
                self._bets += 1
                if self._bets >= 1 + rules.fl_max_raises and (
                    not rules.fl_cap_lifted_heads_up or self._able() > 2
                ):
                    self._capped = True
            else:
                self._min_raise = max(self._min_raise, increment)
        self._last_aggressor = p.index
        if first_bet:
            opened = rules.is_italian and self.street is _PRE_DRAW
            if opened:
                self._opener = p.index
            events = self._events
            seq = self._first_seq + len(events)
            events.append(_BET_PLACED(seq, EVERYONE, p.seat, to, p.all_in, opened, highest > 0))
        else:
            events = self._events
            seq = self._first_seq + len(events)
            events.append(_RAISED(seq, EVERYONE, p.seat, increment, to, p.all_in, full))
        self._after_action(p)

    def _end_round(self) -> None:
        self._to_act = None
        self._return_uncalled()
        for p in self.players:
            p.wager = 0
        self._emit(_BETTING_ROUND_ENDED, EVERYONE, self.street, self.pot_total)
        live = [p for p in self.players if not p.folded]
        if len(live) == 1:
            self._win_uncontested(live[0])
        elif self.street is _PRE_DRAW:
            if self.rules.is_italian and self._opener is None:
                self._carry_everything("nobody opened (R40)")
            else:
                self._begin_draw()
        else:
            self._after_second_round()

    def _return_uncalled(self) -> None:
        """R20: chips nobody matched this round go back before the pots are formed.

        Live wagers only: dead posts (antes, a dead small blind, the invito) are
        never returned."""
        top = self.players[0]
        highest = second = -1
        for q in self.players:  # the first highest wager, and the next highest
            wager = q.wager
            if wager > highest:
                top, highest, second = q, wager, highest
            elif wager > second:
                second = wager
        back = highest - second
        if back > 0:
            top.committed -= back
            self._in_pot -= back
            top.wager -= back
            top.stack += back
            if top.all_in:
                top.all_in = False
                if not top.folded:
                    self._able_count += 1
            self._emit(_UNCALLED_BET_RETURNED, EVERYONE, top.seat, back)

    # ------------------------------------------------------------------- draw

    def _begin_draw(self) -> None:
        self.street = _DRAW
        self.reached_draw = True
        self._highest = 0
        if self.rules.burn_cards:
            self._burn()
        self._draw_order = [i for i, p in enumerate(self.players) if not p.folded]
        self._draw_pos = 0
        self._to_act = self._draw_order[0]

    def _burn(self) -> None:
        self._discard_pile += self._take(1, None)
        self._emit(_CARD_BURNED, EVERYONE)

    def _draw(self, p: _Player, cards: Sequence[int]) -> None:
        k = len(cards)
        events = self._events
        seat = p.seat
        if k == 0:
            p.drew = 0
            events.append(_STOOD_PAT(self._first_seq + len(events), EVERYONE, seat))
        else:
            thrown = p.thrown
            thrown.update(cards)
            p.cards = [c for c in p.cards if c not in thrown]
            p.discards += cards
            p.drew = k
            now = self.rules.max_consecutive_draw
            if now > k:
                now = k
            p.owed = k - now
            seq = self._first_seq + len(events)
            events.append(_DISCARDED(seq, EVERYONE, seat, k, now))
            events.append(_DISCARDED_CARDS(seq + 1, seat, seat, tuple(cards)))
            self._deliver(p, now, deferred=False)
        self._draw_pos = pos = self._draw_pos + 1
        if pos < len(self._draw_order):
            self._to_act = self._draw_order[pos]
            return
        for i in self._draw_order:  # R23: the rest of large discards, in draw order
            q = self.players[i]
            if q.owed:
                owed, q.owed = q.owed, 0
                self._deliver(q, owed, deferred=True)
        self._begin_second_round()

    def _deliver(self, p: _Player, count: int, deferred: bool) -> None:
        new = self._take(count, p, deferred)
        p.cards += new
        events = self._events
        seq = self._first_seq + len(events)
        seat = p.seat
        events.append(_CARDS_DELIVERED(seq, EVERYONE, seat, count, deferred))
        events.append(_CARDS_RECEIVED(seq + 1, seat, seat, tuple(new)))

    def _take(self, count: int, served: _Player | None, deferred: bool = False) -> list[int]:
        """Deal ``count`` cards, reshuffling first if the stub cannot cover them (R24).

        The served player's own discards can be in the stub only if a reshuffle
        for another player took them in while this player waited for deferred
        cards (R23); they are passed over, so nobody receives a card they threw."""
        own = served.thrown if served is not None and deferred and self.reshuffles else ()
        usable = len(self.deck) - (1 if self.rules.protect_last_card else 0)
        if own:
            usable -= sum(1 for c in self.deck.peek_all() if c in own)
        if usable < count:
            self._reshuffle(served)
        return self.deck.deal(count, skip=own)

    def _reshuffle(self, served: _Player | None) -> None:
        """The stub, the burns and every discard except the served player's own;
        folded hands only with ``reshuffle_folded``."""
        pool = self._discard_pile
        self._discard_pile = []
        for q in self.players:
            if q is not served:
                pool += q.discards
                q.discards = []
        if self.rules.reshuffle_folded:
            pool += self._folded_cards
            self._folded_cards = []
        deck = self.deck
        deck.reshuffle(pool)
        self.reshuffles += 1
        seed = self.seed
        self._emit(
            _RESHUFFLED,
            EVERYONE,
            len(deck),
            served.seat if served else 0,
            deck_root(seed, self.reshuffles, deck.orders[-1])
            if seed is not None and self._commit
            else "",
        )

    # ----------------------------------------------------------- second round

    def _begin_second_round(self) -> None:
        self.street = _POST_DRAW
        self._highest = 0
        self._bets = 0
        self._capped = False
        self._full_raises = 0
        self._last_aggressor = None
        rules = self.rules
        self._min_raise = rules.bet_sizes[1] if rules.is_fixed_limit else rules.min_bet
        if self._able() < 2:  # R29: skipped
            self._after_second_round()
            return
        self._second_round_played = True
        first = 0
        if rules.is_italian and self._opener is not None:
            first = self._opener  # R43: the opener, else the next remaining clockwise
        self._begin_betting(first)

    def _after_second_round(self) -> None:
        rules = self.rules
        if (
            rules.is_italian
            and rules.checked_pot_stays
            and self._second_round_played
            and self._last_aggressor is None
        ):
            self._conclude([], [], False, "nobody bet after the draw (R43)")
        else:
            self._showdown()

    # --------------------------------------------------------------- the end

    def _false_opener(self) -> int | None:
        """R44 in ``showdown`` mode: the index of a live opener without openers.

        The opener's original five cards are shown either way (R45)."""
        rules = self.rules
        if not rules.is_italian or rules.openers_check is not OpenersCheck.SHOWDOWN:
            return None
        if self._opener is None or self.players[self._opener].folded:
            return None
        p = self.players[self._opener]
        valid = self._has_openers(p)
        self._emit(_OPENERS_SHOWN, EVERYONE, p.seat, p.original, valid)
        return None if valid else p.index

    def _pots(self) -> list[Pot]:
        """R34: levels at the all-in players' chips; dead small blinds and a carried
        pot go to the main pot."""
        players = self.players
        return build_pots(
            [p.committed - p.dead for p in players],
            [not p.folded for p in players],
            [p.all_in for p in players],
            self._middle_extra + sum([p.dead for p in players]),
        )

    def _win_uncontested(self, winner: _Player) -> None:
        """R13, R30, R41: everyone else folded."""
        pots = self._pots()
        if self._false_opener() == winner.index:
            self._conclude(pots, [[] for _ in pots], False)
        else:
            self._conclude(pots, [[winner.index] for _ in pots], False)

    def _winners(self, pots: list[Pot], excluded: int | None) -> list[list[int]]:
        """The best hands of each pot's eligible players, ``excluded`` left out (R44)."""
        players = self.players
        values = {i: evaluate(players[i].cards) for i in range(len(players))
                  if not players[i].folded}  # fmt: skip
        winners: list[list[int]] = []
        for pot in pots:
            contenders = [i for i in pot.eligible if i != excluded]
            best = max([values[i].strength for i in contenders], default=0)
            winners.append([i for i in contenders if values[i].strength == best])
        return winners

    def _showdown(self) -> None:
        self.street = _SHOWDOWN
        self.showdown = True
        players = self.players
        live = [p.index for p in players if not p.folded]
        values = {i: evaluate(players[i].cards) for i in live}
        false_opener = self._false_opener()
        pots = self._pots()
        winners: list[list[int]] = []
        for pot in pots:
            contenders = [i for i in pot.eligible if i != false_opener]
            best = max([values[i].strength for i in contenders], default=0)
            winners.append([i for i in contenders if values[i].strength == best])
        # R32: the last bettor of the second round shows first, else left of the button.
        first = self._last_aggressor if self._last_aggressor is not None else live[0]
        winning = {i for group in winners for i in group}
        show_all = self.rules.reveal is Reveal.ALL or any(players[i].all_in for i in live)
        events = self._events
        seq = self._first_seq + len(events)
        for p in players[first:] + players[:first]:
            if p.folded:
                continue
            if show_all or p.index in winning:
                description = values[p.index].description
                events.append(_HAND_SHOWN(seq, EVERYONE, p.seat, tuple(p.cards), description))
            else:
                events.append(_MUCKED(seq, EVERYONE, p.seat))
            seq += 1
        # R48: the award waits for the requests to see the openers.
        self._conclude(pots, winners, True)

    # ----------------------------------------------------- openers on request

    def _conclude(
        self, pots: list[Pot], winners: list[list[int]], showdown: bool, carry: str = ""
    ) -> None:
        """End the hand: pay the pots to ``winners`` (or carry everything, ``carry``
        saying why), after the requests to see the openers when R48 applies."""
        rules = self.rules
        if (
            rules.is_italian
            and rules.openers_check is OpenersCheck.ON_REQUEST
            and self._opener is not None
        ):
            self._pending = (pots, winners, showdown, carry)
            self.street = _OPENERS
            n = len(self.players)
            # Every other player dealt in, clockwise from the opener.
            self._askers = [(self._opener + k) % n for k in range(1, n)]
            self._ask_pos = 0
            self._to_act = self._askers[0]
            return
        self._close(pots, winners, showdown, carry)

    def _close(self, pots: list[Pot], winners: list[list[int]], showdown: bool, carry: str) -> None:
        self._to_act = None
        if carry:
            self._carry_everything(carry)
        else:
            self._settle(pots, winners, showdown)

    def _penalty(self, opener: _Player) -> int:
        """R48: what a false opener pays: the penalty, capped by the opener's stack."""
        due = self.rules.penalty_due(self.pot_total)
        return due if due < opener.stack else opener.stack

    def _decline(self, p: _Player) -> None:
        opener = self.players[self._opener]  # type: ignore[index]
        self._emit(_OPENERS_DECLINED, EVERYONE, p.seat, opener.seat)
        self._ask_pos += 1
        if self._ask_pos < len(self._askers):
            self._to_act = self._askers[self._ask_pos]
            return
        pending = self._pending
        assert pending is not None
        self._pending = None
        self._close(*pending)  # nobody asked: the pot is paid as the cards say

    def _ask(self, p: _Player) -> None:
        """R48: the opener's original five cards are shown; without openers the opener
        pays the penalty into the carried pot and forfeits this hand (R44)."""
        opener = self.players[self._opener]  # type: ignore[index]
        pending = self._pending
        assert pending is not None
        self._pending = None
        pots, winners, showdown, carry = pending
        self._emit(_OPENERS_REQUESTED, EVERYONE, p.seat, opener.seat)
        valid = self._has_openers(opener)
        self._emit(_OPENERS_SHOWN, EVERYONE, opener.seat, opener.original, valid)
        if not valid:
            due = self.rules.penalty_due(self.pot_total)
            paid = self._penalty(opener)
            opener.stack -= paid
            self._emit(_PENALTY_PAID, EVERYONE, opener.seat, paid, due)
            if paid:
                self._carry(paid, "the false opener's penalty (R48)")
            if not carry and not opener.folded:
                winners = self._forfeit(pots, showdown, opener)
        self._close(pots, winners, showdown, carry)

    def _forfeit(self, pots: list[Pot], showdown: bool, opener: _Player) -> list[list[int]]:
        """R44 for a false opener still in the hand: the best other hand takes each
        pot; a pot nobody else may win stays for the next hand. A hand that now wins
        and was mucked (``reveal`` = winners) is shown."""
        if not showdown:
            return [[] for _ in pots]  # the opener was the only hand left
        winners = self._winners(pots, opener.index)
        shown = {e.seat for e in self._events if isinstance(e, HandShown)}
        players = self.players
        for i in sorted({i for group in winners for i in group}):
            q = players[i]
            if q.seat not in shown:
                description = evaluate(q.cards).description
                self._emit(_HAND_SHOWN, EVERYONE, q.seat, tuple(q.cards), description)
        return winners

    def _settle(self, pots: list[Pot], winners: list[list[int]], showdown: bool) -> None:
        """Pay each pot to its winners after rake; a pot nobody may win stays (R44)."""
        rules = self.rules
        players = self.players
        self._middle_extra = 0
        self._in_pot = 0
        for p in players:
            p.committed = 0
        won = [k for k, group in enumerate(winners) if group]
        if len(won) < len(pots):
            carried = sum([pot.amount for k, pot in enumerate(pots) if k not in won])
            if carried:
                self._carry(carried, "the opener had no openers (R44)")
        paid_pots = [pots[k] for k in won]
        rake = 0
        if self.reached_draw and rules.rake_percent and paid_pots:  # R13, R36
            total = sum(pot.amount for pot in paid_pots)
            rake = rake_for(total, rules.rake_percent, rules.rake_cap(len(players)))
        shares = rake_pots(paid_pots, rake) if paid_pots else []
        if rake:
            self.rake = rake
            self._emit(_RAKE_TAKEN, EVERYONE, rake)
        for k, pot, cut in zip(won, paid_pots, shares, strict=True):
            amount = pot.amount - cut
            shares_paid = []
            for i, chips in split(amount, winners[k]):
                p = players[i]
                p.stack += chips
                shares_paid.append((p.seat, chips))
            paid = tuple(shares_paid)
            self._awards.append((amount, paid))
            self._emit(
                _POT_AWARDED,
                EVERYONE,
                k,
                amount,
                paid,
                tuple([players[i].seat for i in pot.eligible]),
                showdown,
            )
        self._end()

    def _carry_everything(self, reason: str) -> None:
        amount = self.pot_total
        self._middle_extra = 0
        self._in_pot = 0
        for p in self.players:
            p.committed = 0
        self._carry(amount, reason)
        self._end()

    def _carry(self, amount: int, reason: str) -> None:
        self.carried_out += amount
        self._emit(_POT_CARRIED, EVERYONE, amount, reason)

    def _end(self) -> None:
        self.street = _OVER
        self._to_act = None
        if self.seed is not None:
            deal = self.deal
            self._emit(
                _DECK_REVEALED,
                EVERYONE if self.reveal_seed else SERVER,
                self.seed.hex(),
                deal.server_seed.hex() if deal is not None else "",
            )
        self._emit(
            _HAND_ENDED,
            EVERYONE,
            tuple([(p.seat, p.stack) for p in self._seat_order]),
            self.rake,
            self.carried_out,
            self.reached_draw,
        )

    @property
    def result(self) -> HandResult:
        if not self.is_over:
            raise IllegalAction("the hand is not over")
        players = self.players
        return HandResult(  # stacks, net, rake, carried_pot, pots, reached_draw, showdown
            {p.seat: p.stack for p in players},
            {p.seat: p.stack - p.start for p in players},
            self.rake,
            self.carried_out,
            tuple(self._awards),
            self.reached_draw,
            self.showdown,
        )

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if a chip or a card is out of place, or the turn is wrong.

        Chips: stacks + the middle + rake + carried out = starting stacks + carried in.
        Cards: hands, own discards, discard pile, folded hands and stub are the 52
        cards, each once.
        """
        players = self.players
        live = [p for p in players if not p.folded]
        counted = (
            len(live),
            len([p for p in live if not p.all_in]),
            sum([p.committed for p in players]),
        )
        kept = (self._live, self._able_count, self._in_pot)
        if counted != kept:
            raise AssertionError(f"live, able, committed: kept {kept}, counted {counted}")
        chips = sum([p.stack for p in players]) + self.pot_total + self.rake + self.carried_out
        start = sum([p.start for p in players]) + self.carried_in
        if chips != start:
            raise AssertionError(f"chips: {chips} on the table, {start} at the start")
        places = self.deck.stub() + self._discard_pile + self._folded_cards
        for p in players:
            places += p.cards
            places += p.discards
        places.sort()
        if places != _ALL_CARDS:
            counts = Counter(places)
            twice = [c for c, k in counts.items() if k > 1]
            raise AssertionError(f"cards: {len(places)} placed, twice: {format_cards(twice)}")
        if self.is_over:
            if self._to_act is not None:
                raise AssertionError("a seat is to act in a finished hand")
            return
        if self._to_act is None:
            raise AssertionError(f"nobody to act on the {self.street}")
        p = players[self._to_act]
        if self.street is _OPENERS:
            if p.index == self._opener:
                raise AssertionError(f"seat {p.seat} is asked for its own openers")
            return
        if p.folded or (p.all_in and self.street is not _DRAW):
            raise AssertionError(f"seat {p.seat} is to act but cannot")

    # ------------------------------------------------------------------ events

    def _emit(self, make: Callable[..., Event], /, *fields: Any) -> None:
        """Append ``make(seq, visible_to, *own fields)``: ``fields`` start with ``visible_to``."""
        events = self._events
        events.append(make(self._first_seq + len(events), *fields))

    def events_for(self, viewer: int = EVERYONE) -> list[Event]:
        """The events ``viewer`` may see: a seat, ``EVERYONE`` (a spectator) or ``SERVER``."""
        return [e for e in self._events if e.visible(viewer)]

    def view(self, viewer: int = EVERYONE) -> dict[str, Any]:
        """What ``viewer`` may know now, as plain data (a seat, ``EVERYONE`` or ``SERVER``)."""
        shown = {e.seat: e.cards for e in self._events if isinstance(e, HandShown)}
        seats = []
        for p in self.players:
            if viewer == SERVER or viewer == p.seat:
                cards: list[str] | None = format_cards(p.cards).split() if p.cards else []
            elif p.seat in shown:
                cards = format_cards(shown[p.seat]).split()
            else:
                cards = None
            seats.append(
                {
                    "seat": p.seat,
                    "stack": p.stack,
                    "wager": p.wager,
                    "committed": p.committed,
                    "folded": p.folded,
                    "all_in": p.all_in,
                    "card_count": len(p.cards) if not p.folded else 0,
                    "cards": cards,
                    "drew": p.drew,
                    "penalized": p.penalized,
                }
            )
        legal = self.legal_actions()
        return {
            "hand_id": self.hand_id,
            "street": str(self.street),
            "button": self.button,
            "to_act": self.to_act,
            "pot": self.pot_total,
            "highest": self._highest,
            "stub": len(self.deck),
            "seats": seats,
            "legal": None
            if legal is None or viewer not in (SERVER, legal.seat)
            else legal.to_dict(),
            "next_seq": self.next_seq,
        }
