"""Messages the server sends: frames (``welcome``, ``ok``, ``error``, ``snapshot``,
``event``, ``lobby``, ``pong``) and the entries of a table's log that the server
itself makes (``Turn``, ``Legal``, ...). The engine's and the room's events
travel in ``event`` frames too; ``drawpoker.protocol.events`` converts them.

The fields here are the documentation of the wire: clients decode with these
classes (unknown fields are ignored, so a newer server does not break an older
client) and the tests check that every frame a real server sends decodes.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Frame(msgspec.Struct, tag_field="type", kw_only=True):
    """Base of every server frame; ``type`` is the class's tag."""


class AccountInfo(msgspec.Struct, kw_only=True):
    id: int
    name: str


class Welcome(Frame, tag="welcome", kw_only=True):
    """The first frame of a connection (``account`` null: a spectator)."""

    protocol: int
    server: str
    account: AccountInfo | None


class Ok(Frame, tag="ok", kw_only=True):
    """The request ``ref`` was done."""

    ref: str | None
    detail: dict[str, Any] = msgspec.field(default_factory=dict)


class Error(Frame, tag="error", kw_only=True):
    """The request ``ref`` was refused and nothing changed; ``code`` is machine-readable."""

    ref: str | None
    code: str
    message: str


class Pong(Frame, tag="pong", kw_only=True):
    ref: str | None
    time: float


# ------------------------------------------------------------------- snapshot


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seated player as everyone sees them."""

    seat: int
    name: str
    stack: int
    pending_top_up: int = 0
    sitting_out: bool = False
    connected: bool = True
    bot: bool = False
    time_bank: float = 0.0
    waiting: str | None = None  # not dealt in yet: "big_blind", "post" or "next_hand"
    sit_out_next: bool = False  # sits out when this hand ends
    leaving: bool = False  # stands up when this hand ends


class PreActionInfo(msgspec.Struct, kw_only=True):
    """The pre-action the server holds for me (R25); ``amount``: what a held ``call``
    adds."""

    pre: str
    discard: list[str] = msgspec.field(default_factory=list)
    amount: int = 0


class LegalInfo(msgspec.Struct, kw_only=True):
    """What the player to act may do (``LegalActions.to_dict``); amounts are totals TO."""

    seat: int
    street: str
    fold: bool
    check: bool
    call: int
    call_all_in: bool = False
    min_to: int = 0
    max_to: int = 0
    bet_label: str = ""
    draw: bool = False
    max_discard: int = 0
    hand: list[str] = msgspec.field(default_factory=list)
    ask_openers: bool = False  # R48: ask to see the openers of ``opener``, or decline
    opener: int = 0
    penalty: int = 0  # what an opener found without openers pays


class HandSeat(msgspec.Struct, kw_only=True):
    """One player of the hand in play (``cards`` null: not visible to this viewer)."""

    seat: int
    stack: int
    wager: int
    committed: int
    folded: bool
    all_in: bool
    card_count: int
    cards: list[str] | None
    drew: int | None = None
    penalized: bool = False


class HandView(msgspec.Struct, kw_only=True):
    """The hand in play as this viewer may see it (``Hand.view``)."""

    hand_id: str
    street: str
    button: int
    to_act: int | None
    pot: int
    highest: int
    stub: int
    seats: list[HandSeat]
    legal: LegalInfo | None = None
    next_seq: int = 0
    commitment: str = ""
    clock_s: float = 0.0  # the running clock of the player to act, from now
    bank_running: bool = False  # that clock is their time bank
    my_hand: str | None = None  # the viewer's own five cards described


class LevelInfo(msgspec.Struct, kw_only=True):
    level: int
    small_blind: int
    big_blind: int
    ante: int
    minutes: float


class TournamentInfo(msgspec.Struct, kw_only=True):
    """A tournament table's tournament: the level in force and what follows."""

    id: str
    name: str
    table_no: int
    level: LevelInfo
    next_level: LevelInfo | None
    next_in_s: float | None
    players_left: int
    entries: int


class LastHand(msgspec.Struct, kw_only=True):
    """The table's last finished hand, as this viewer may see it."""

    hand_id: str
    story: list[dict[str, Any]]


class ChatLine(msgspec.Struct, kw_only=True):
    name: str
    text: str


class SeatOffer(msgspec.Struct, kw_only=True):
    """A seat held for the viewer, first on the waiting list, for ``until_s`` more seconds."""

    seat: int
    until_s: float


class TableState(msgspec.Struct, kw_only=True):
    """A ``snapshot``'s ``state``: the table now, as this viewer may see it.

    ``story``: the numbered events of the hand in play as this viewer may see them
    (the dicts of ``event`` frames), to rebuild its log; ``last_hand``: the same of
    the last finished hand."""

    table: str
    name: str
    epoch: str
    rules: str
    max_seats: int
    min_buy_in: int | None
    max_buy_in: int | None
    button: int | None
    carried_pot: int
    you: int | None
    pre_action: PreActionInfo | None
    seats: list[SeatInfo]
    hand: HandView | None
    tournament: TournamentInfo | None = None
    game: str = "draw"  # "draw" or "italian" (see ``protocol.stakes``)
    structure: str = ""
    small_blind: int | None = None
    big_blind: int | None = None
    small_bet: int | None = None  # fixed limit: the bets
    big_bet: int | None = None
    ante: int = 0
    invito: int | None = None
    openers: str | None = None
    story: list[dict[str, Any]] = msgspec.field(default_factory=list)
    last_hand: LastHand | None = None
    chat: list[ChatLine] = msgspec.field(default_factory=list)
    practice: bool = False  # the table gives hints (hand strength, best discard)
    waiting_list: list[str] = msgspec.field(default_factory=list)
    seat_offer: SeatOffer | None = None
    auto_top_up: int | None = None  # the viewer's auto top-up target
    status: str = "open"  # cash tables: open, paused, closing, closed (``TableChanged``)


class Snapshot(Frame, tag="snapshot", kw_only=True):
    table: str
    v: int
    state: TableState


class EventFrame(Frame, tag="event", kw_only=True, omit_defaults=True):
    """One entry of a table's log (``v``: the table's version), or of a tournament's
    channel (no ``v``). ``event`` is an engine, room or server entry (below)."""

    table: str
    event: dict[str, Any]
    v: int | None = None


# ---------------------------------------------------------------------- lobby


class TableRow(msgspec.Struct, kw_only=True):
    """A cash table in the lobby."""

    id: str
    name: str
    kind: str
    game: str
    structure: str
    stakes: str
    description: str
    seats_taken: int
    seats_total: int
    min_buy_in: int
    max_buy_in: int
    average_pot: int
    hands_per_hour: int
    players: list[str]
    small_blind: int | None = None
    big_blind: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    ante: int = 0
    invito: int | None = None
    openers: str | None = None
    practice: bool = False
    waiting: int = 0  # on the waiting list
    status: str = "open"  # open or paused (a closed table's row is its last: drop it)


class RunRow(msgspec.Struct, kw_only=True):
    instance: str
    players_left: int
    entries: int
    status: str


class TournamentRow(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A configured tournament in the lobby: its run open for registration and the
    runs in play (``you``: where the caller stands, with a session)."""

    id: str
    instance: str
    name: str
    kind: str
    game: str
    structure: str
    buy_in: int
    fee: int
    starting_chips: int
    level_minutes: float
    levels: list[LevelInfo]
    registered: int
    max_entries: int
    min_entries: int
    seats_per_table: int
    starts: str
    starts_at: float | None
    prize_pool: int
    status: str
    running: list[RunRow]
    finished: list[str]
    you: dict[str, Any] | None = None


class Lobby(Frame, tag="lobby", kw_only=True):
    """Lobby rows: all of them (``full``), then the changed ones."""

    tables: list[TableRow]
    tournaments: list[TournamentRow]
    full: bool


AnyFrame = Welcome | Ok | Error | Snapshot | EventFrame | Lobby | Pong
"""The union a client decodes."""
SERVER_FRAMES: tuple[type[Frame], ...] = (Welcome, Ok, Error, Snapshot, EventFrame, Lobby, Pong)


# ------------------------------------------------------- entries the server makes


class Entry(msgspec.Struct, tag_field="type", kw_only=True):
    """Base of the log entries the server makes (beside engine and room events)."""


class Turn(Entry, tag="Turn", kw_only=True):
    """Whose turn it is and how long their clock runs (``clock_s`` from now), and
    the seconds in their time bank then."""

    seat: int
    street: str
    clock_s: float
    hand_id: str
    time_bank: float = 0.0


class Hint(msgspec.Struct, kw_only=True):
    """On a practice table: the hand described and, at the draw, the best discard."""

    description: str | None = None
    discard: list[str] | None = None
    label: str | None = None  # "keep Jc Jd, draw 3"
    improve: float | None = None  # the chance the best draw improves the hand


class Legal(Entry, tag="Legal", kw_only=True):
    """Private to the player to act: exactly what they may do (``my_hand``: their
    cards described; ``hint`` on practice tables)."""

    hand_id: str
    legal: LegalInfo
    my_hand: str | None = None
    hint: Hint | None = None


class TimeBank(Entry, tag="TimeBank", kw_only=True):
    """The action clock ran out and the player's time bank runs (once per turn)."""

    seat: int
    seconds: float
    hand_id: str


class PreActionCancelled(Entry, tag="PreActionCancelled", kw_only=True):
    """Private: the held pre-action no longer applies (the wager changed)."""

    pre: str
    hand_id: str


class MyHand(Entry, tag="MyHand", kw_only=True):
    """Private: my five cards described, when they change (the deal, my draw)."""

    hand_id: str
    description: str


class SeatStatus(Entry, tag="SeatStatus", kw_only=True):
    """A seat's way into the next hand changed (``waiting``: ``big_blind``, ``post``,
    ``next_hand`` or null), or it sits out or leaves when the hand ends."""

    seat: int
    waiting: str | None
    sit_out_next: bool
    leaving: bool


class SeatOfferExpired(Entry, tag="SeatOfferExpired", kw_only=True):
    """Private: the seat held for me was not taken in time; it goes to the next in line."""

    seat: int


class Chat(Entry, tag="Chat", kw_only=True):
    name: str
    text: str


class ChatDeleted(Entry, tag="ChatDeleted", kw_only=True):
    """A moderator deleted the chat line(s) in which ``name`` said ``text``."""

    name: str
    text: str


class WaitingList(Entry, tag="WaitingList", kw_only=True):
    """Who waits for a seat at this full table, in order."""

    names: list[str]


class TableChanged(Entry, tag="TableChanged", kw_only=True):
    """An operator paused, resumed, closed or changed the cash table. ``status``:
    ``open``; ``paused`` (the hand in play ends, no other is dealt); ``closing``
    (no new seat or hand, every player stands up when the hand in play ends,
    cashed out); ``closed``. The other fields are the table's as a snapshot's."""

    status: str
    name: str
    rules: str
    max_seats: int
    min_buy_in: int
    max_buy_in: int
    practice: bool = False
    game: str = "draw"
    structure: str = ""
    small_blind: int | None = None
    big_blind: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    ante: int = 0
    invito: int | None = None
    openers: str | None = None


class AutoTopUpFailed(Entry, tag="AutoTopUpFailed", kw_only=True):
    """Private: the automatic top-up of ``amount`` could not be made (``reason``)."""

    amount: int
    reason: str


class SeatOffered(Entry, tag="SeatOffered", kw_only=True):
    """Private: a seat is held for you for ``until_s`` seconds; take it with ``sit``."""

    seat: int
    until_s: float


class Moved(Entry, tag="Moved", kw_only=True):
    """Private: you were moved to another tournament table; subscribe to it."""

    table: str
    table_no: int
    seat: int


class YourTable(Entry, tag="YourTable", kw_only=True):
    """Private, on a tournament's channel: where the tournament seats you."""

    table: str
    table_no: int
    seat: int | None


class Finished(Entry, tag="Finished", kw_only=True):
    """Private: your tournament is over (``places`` [1]: you won)."""

    tournament: str
    places: list[int]
    prize: int


SERVER_ENTRIES: tuple[type[Entry], ...] = (
    Turn,
    Legal,
    TimeBank,
    PreActionCancelled,
    MyHand,
    SeatStatus,
    Chat,
    ChatDeleted,
    WaitingList,
    TableChanged,
    SeatOffered,
    SeatOfferExpired,
    AutoTopUpFailed,
    Moved,
    YourTable,
    Finished,
)
