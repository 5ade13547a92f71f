"""A table as the terminal client knows it, rebuilt from the wire: the snapshot,
then every ``event`` frame (engine, room and server entries). No Textual here:
the screens draw what this holds, and the tests read it.

The hand itself is ``drawpoker.protocol.mirror.HandMirror`` (the same view the
remote bots keep: stacks, wagers, the pot, who drew how many); around it this
keeps the seats and names, whose turn it is and the clock, my cards and the
ones I marked, the legal actions, the held pre-action, the hand log and chat,
and a tournament table's level, moves and finishing place. An entry of a type
it does not know is logged and kept in ``unknown``, never fatal.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from drawpoker.events import Street
from drawpoker.protocol.events import ENGINE_EVENTS, WireError, event_from_wire
from drawpoker.protocol.mirror import HandMirror
from drawpoker.tui.i18n import Catalogue

log = logging.getLogger("drawpoker.tui")

LOG_LINES = 400
CHAT_LINES = 200

# entries that change nothing this client draws (kept quiet in the unknown list)
_QUIET = frozenset(
    ("CardsDealt", "CardsDelivered", "DeckRevealed", "CardBurned", "WaitingList", "SeatStatus",
     "SeatOfferExpired", "MyHandShown")
)  # fmt: skip


# entries that change what is drawn: their handler's name
_HANDLERS = {
    "Turn": "_on_turn",
    "TimeBank": "_on_time_bank",
    "Legal": "_on_legal",
    "MyHand": "_on_my_hand",
    "PreActionCancelled": "_on_pre_action_cancelled",
    "Chat": "_on_chat",
    "ChatDeleted": "_on_chat_deleted",
    "TableChanged": "_on_table_changed",
    "PlayerSeated": "_on_player_seated",
    "PlayerLeft": "_on_player_left",
    "ToppedUp": "_on_topped_up",
    "SatOut": "_on_sat_out",
    "SatIn": "_on_sat_in",
    "ConnectionChanged": "_on_connection_changed",
    "HandCancelled": "_on_hand_cancelled",
    "LevelStarted": "_on_level_started",
    "Moved": "_on_moved",
    "Finished": "_on_finished",
}
# entries only written to the log
_LOGGED = frozenset(
    ("BlindsMissed", "PlayerEliminated", "TournamentStarted", "TournamentFinished",
     "RegistrationClosed", "PlayerMoved", "TableBroken", "FinalTable", "HandForHand",
     "SeatOffered", "AutoTopUpFailed", "YourTable", "TournamentCancelled")
)  # fmt: skip


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    stack: int
    sitting_out: bool = False
    connected: bool = True
    bot: bool = False
    time_bank: float = 0.0
    waiting: str | None = None


@dataclass(slots=True)
class Clock:
    """The running clock of the player to act (``deadline`` on ``time.monotonic``)."""

    seat: int
    street: str
    deadline: float
    bank: bool = False  # the time bank is running
    time_bank: float = 0.0  # the bank behind the action clock

    def left(self, now: float | None = None) -> float:
        return max(0.0, self.deadline - (time.monotonic() if now is None else now))


@dataclass(slots=True)
class TableModel:
    table: str
    t: Catalogue
    name: str = ""
    rules: str = ""
    epoch: str | None = None
    v: int | None = None
    max_seats: int = 6
    status: str = "open"  # an operator's: open, paused, closing, closed
    min_buy_in: int = 0
    max_buy_in: int = 0
    big_blind: int = 0
    button: int | None = None
    you: int | None = None
    me: str = ""  # my account's name: a ``PlayerSeated`` with it is my seat
    seats: dict[int, Seat] = field(default_factory=dict)
    hand: HandMirror | None = None
    to_act: int | None = None
    clock: Clock | None = None
    legal: dict[str, Any] | None = None  # LegalInfo as a dict, for the hand ``legal_hand``
    legal_hand: str = ""
    my_hand: str = ""  # my five cards described
    marks: set[int] = field(default_factory=set)  # indices of my cards marked for the draw
    pre_action: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)
    chat: list[tuple[str, str]] = field(default_factory=list)
    tournament: dict[str, Any] | None = None
    moved_to: tuple[str, int] | None = None  # a tournament moved me: (table id, number)
    finished: dict[str, Any] | None = None  # my tournament is over: places and prize
    timeouts: int = 0  # my clock ran out (TimedOut for my seat)
    hands_seen: int = 0
    showdowns: int = 0  # hands that ended with cards shown
    last_winners: list[str] = field(default_factory=list)
    unknown: list[dict[str, Any]] = field(default_factory=list)
    on_change: Callable[[], None] | None = None

    # ------------------------------------------------------------------ reading

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        s = self.seats.get(seat)
        return s.name if s else self.t.t("seat.number", n=seat)

    @property
    def my_turn(self) -> bool:
        return self.legal is not None and self.you is not None and self.to_act == self.you

    @property
    def street(self) -> str:
        return str(self.hand.street) if self.hand is not None else str(Street.OVER)

    @property
    def in_hand(self) -> bool:
        """I was dealt into the hand in play and have not folded."""
        hand = self.hand
        if hand is None or not hand.active or self.you is None:
            return False
        mine = next((s for s in hand.seats if s["seat"] == self.you), None)
        return mine is not None and not mine["folded"]

    @property
    def dealt_in(self) -> bool:
        """I was dealt into the hand in play."""
        return (
            self.hand is not None and self.you is not None and self.hand_seat(self.you) is not None
        )

    def my_cards(self) -> list[str]:
        hand = self.hand
        if hand is None or self.you is None:
            return []
        mine = next((s for s in hand.seats if s["seat"] == self.you), None)
        return list(mine["cards"] or []) if mine else []

    def hand_seat(self, seat: int) -> dict[str, Any] | None:
        if self.hand is None:
            return None
        return next((s for s in self.hand.seats if s["seat"] == seat), None)

    def stack(self, seat: int) -> int:
        entry = self.hand_seat(seat)
        if entry is not None and self.hand is not None and self.hand.active:
            return int(entry["stack"])
        s = self.seats.get(seat)
        return s.stack if s else 0

    def marked_cards(self) -> list[str]:
        cards = self.my_cards()
        return [cards[i] for i in sorted(self.marks) if i < len(cards)]

    def free_seats(self) -> list[int]:
        return [n for n in range(1, self.max_seats + 1) if n not in self.seats]

    # ------------------------------------------------------------------ writing

    def _say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def load_snapshot(self, state: Mapping[str, Any], v: int) -> None:
        self.v = v
        self.epoch = str(state.get("epoch") or "") or None
        self.name = str(state.get("name") or self.table)
        self.rules = str(state.get("rules") or "")
        self.max_seats = int(state.get("max_seats") or 6)
        self.min_buy_in = int(state.get("min_buy_in") or 0)
        self.max_buy_in = int(state.get("max_buy_in") or 0)
        self.big_blind = int(state.get("big_blind") or 0)
        self.status = str(state.get("status") or "open")
        self.button = state.get("button")
        self.you = state.get("you")
        self.tournament = state.get("tournament")
        if isinstance(self.tournament, Mapping) and isinstance(self.tournament.get("level"), dict):
            self.big_blind = int(self.tournament["level"].get("big_blind") or self.big_blind)
        self.seats = {
            int(s["seat"]): Seat(
                seat=int(s["seat"]),
                name=str(s.get("name", "")),
                stack=int(s.get("stack", 0)),
                sitting_out=bool(s.get("sitting_out")),
                connected=bool(s.get("connected", True)),
                bot=bool(s.get("bot")),
                time_bank=float(s.get("time_bank") or 0.0),
                waiting=s.get("waiting"),
            )
            for s in state.get("seats", [])
        }
        self.pre_action = state.get("pre_action")
        self.chat = [(str(c["name"]), str(c["text"])) for c in state.get("chat", [])]
        view = state.get("hand")
        self.legal = None
        self.clock = None
        self.to_act = None
        if isinstance(view, Mapping):
            self.hand = HandMirror.from_view(view, self.you or 0, self.max_seats)
            self.to_act = view.get("to_act")
            self.my_hand = str(view.get("my_hand") or "")
            if view.get("legal") and self.you is not None and self.to_act == self.you:
                self.legal = dict(view["legal"])
                self.legal_hand = str(view["hand_id"])
            if self.to_act is not None:
                self.clock = Clock(
                    seat=int(self.to_act),
                    street=str(view.get("street")),
                    deadline=time.monotonic() + float(view.get("clock_s") or 0.0),
                    bank=bool(view.get("bank_running")),
                    time_bank=self._bank_of(int(self.to_act)),
                )
        else:
            self.hand = None
            self.marks.clear()
        # the log of the hand in play, rebuilt from its story
        self.log = []
        for entry in state.get("story", []):
            if isinstance(entry, Mapping):
                self._log_entry(entry)
        self._changed()

    def _bank_of(self, seat: int) -> float:
        s = self.seats.get(seat)
        return s.time_bank if s else 0.0

    def apply(self, entry: Mapping[str, Any], v: int | None) -> None:
        """One ``event`` frame's entry (``v``: the table's version after it)."""
        if v is not None:
            self.v = max(self.v or 0, v)
        kind = str(entry.get("type", ""))
        try:
            self._apply(kind, entry)
        except (WireError, KeyError, TypeError, ValueError) as error:
            log.warning("could not apply %s: %s", kind, error)
            self.unknown.append(dict(entry))
        self._changed()

    def _apply(self, kind: str, e: Mapping[str, Any]) -> None:
        if kind in ENGINE_EVENTS:
            self._engine(kind, e)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            getattr(self, handler)(e)
        elif kind not in ENGINE_EVENTS and kind not in _QUIET and kind not in _LOGGED:
            log.warning("an entry this client does not know: %.300s", dict(e))
            self.unknown.append(dict(e))
        self._log_entry(e)

    def _engine(self, kind: str, e: Mapping[str, Any]) -> None:
        event = event_from_wire(e)
        if event is None:
            return
        if kind == "HandStarted":
            self.hand = HandMirror(self.you or 0, self.max_seats)
            self.marks.clear()
            self.my_hand = ""
            self.legal = None
            self.button = int(e["button"])
            self.hands_seen += 1
            self.last_winners = []
        if self.hand is None:
            return
        self.hand.apply(event, self.big_blind)
        if kind == "HandEnded":
            for seat, stack in e["stacks"]:
                if int(seat) in self.seats:
                    self.seats[int(seat)].stack = int(stack)
            self.to_act = None
            self.clock = None
            self.legal = None
            self.pre_action = None
        elif kind in ("BettingRoundEnded", "Folded", "Checked", "Called", "BetPlaced", "Raised",
                      "StoodPat", "Discarded", "TimedOut"):  # fmt: skip
            if self.to_act == e.get("seat") or kind == "BettingRoundEnded":
                self.clock = None
                self.to_act = None
            if e.get("seat") == self.you:
                self.legal = None
                if kind in ("StoodPat", "Discarded", "TimedOut") and self.street != "pre-draw":
                    self.marks.clear()
                if kind == "TimedOut":
                    self.timeouts += 1
            if kind == "Folded" and e.get("seat") == self.you:
                self.marks.clear()

    # server entries ------------------------------------------------------------

    def _on_turn(self, e: Mapping[str, Any]) -> None:
        self.to_act = int(e["seat"])
        if self.hand is not None and self.hand.active:  # the mirror knows no post-draw
            with contextlib.suppress(ValueError):
                self.hand.street = Street(str(e["street"]))
        self.clock = Clock(
            seat=self.to_act,
            street=str(e["street"]),
            deadline=time.monotonic() + float(e["clock_s"]),
            time_bank=float(e.get("time_bank") or 0.0),
        )
        if self.to_act != self.you:
            self.legal = None

    def _on_time_bank(self, e: Mapping[str, Any]) -> None:
        if self.clock is not None and self.clock.seat == int(e["seat"]):
            self.clock.bank = True
            self.clock.deadline = time.monotonic() + float(e["seconds"])

    def _on_legal(self, e: Mapping[str, Any]) -> None:
        self.legal = dict(e["legal"])
        self.legal_hand = str(e["hand_id"])
        if self.you is None and self.legal.get("seat"):
            self.sat_at(int(self.legal["seat"]))
        if self.you is not None:
            self.to_act = self.you
        if e.get("my_hand"):
            self.my_hand = str(e["my_hand"])

    def _on_my_hand(self, e: Mapping[str, Any]) -> None:
        self.my_hand = str(e["description"])

    def _on_pre_action_cancelled(self, e: Mapping[str, Any]) -> None:
        self.pre_action = None

    def _on_chat(self, e: Mapping[str, Any]) -> None:
        self.chat.append((str(e["name"]), str(e["text"])))
        del self.chat[:-CHAT_LINES]

    def _on_chat_deleted(self, e: Mapping[str, Any]) -> None:
        """A moderator deleted a line: gone from this chat too."""
        line = (str(e["name"]), str(e["text"]))
        self.chat = [said for said in self.chat if said != line]

    def _on_table_changed(self, e: Mapping[str, Any]) -> None:
        """An operator paused, resumed, closed or changed the table."""
        before, self.status = self.status, str(e.get("status") or "open")
        self.name = str(e.get("name") or self.name)
        self.rules = str(e.get("rules") or self.rules)
        self.max_seats = int(e.get("max_seats") or self.max_seats)
        self.min_buy_in = int(e.get("min_buy_in") or self.min_buy_in)
        self.max_buy_in = int(e.get("max_buy_in") or self.max_buy_in)
        self.big_blind = int(e.get("big_blind") or self.big_blind)
        key = f"notice.table_{self.status}" if self.status != before else "notice.table_changed"
        self._say(self.t.t(key))

    def _on_player_seated(self, e: Mapping[str, Any]) -> None:
        seat = int(e["seat"])
        self.seats[seat] = Seat(seat=seat, name=str(e.get("name", "")), stack=int(e["stack"]))
        if self.me and e.get("name") == self.me:
            self.sat_at(seat)

    def sat_at(self, seat: int) -> None:
        """I sit in ``seat`` (my ``sit`` was answered, or my name was seated)."""
        self.you = seat
        if self.hand is not None:
            self.hand.seat = seat

    def _on_player_left(self, e: Mapping[str, Any]) -> None:
        seat = int(e["seat"])
        self.seats.pop(seat, None)
        if seat == self.you:
            self.you = None

    def _on_topped_up(self, e: Mapping[str, Any]) -> None:
        if (s := self.seats.get(int(e["seat"]))) is not None:
            s.stack = int(e["stack"])

    def _on_sat_out(self, e: Mapping[str, Any]) -> None:
        if (s := self.seats.get(int(e["seat"]))) is not None:
            s.sitting_out = True

    def _on_sat_in(self, e: Mapping[str, Any]) -> None:
        if (s := self.seats.get(int(e["seat"]))) is not None:
            s.sitting_out = False

    def _on_connection_changed(self, e: Mapping[str, Any]) -> None:
        if (s := self.seats.get(int(e["seat"]))) is not None:
            s.connected = bool(e["connected"])

    def _on_hand_cancelled(self, e: Mapping[str, Any]) -> None:
        for seat, stack in e.get("stacks", []):
            if int(seat) in self.seats:
                self.seats[int(seat)].stack = int(stack)
        self.hand = None
        self.to_act = None
        self.clock = None
        self.legal = None
        self.marks.clear()

    def _on_level_started(self, e: Mapping[str, Any]) -> None:
        self.big_blind = int(e["big_blind"])
        if isinstance(self.tournament, dict):
            self.tournament["level"] = {
                k: e.get(k) for k in ("level", "small_blind", "big_blind", "ante", "minutes")
            }

    def _on_moved(self, e: Mapping[str, Any]) -> None:
        self.moved_to = (str(e["table"]), int(e["table_no"]))

    def _on_finished(self, e: Mapping[str, Any]) -> None:
        self.finished = {"places": list(e["places"]), "prize": int(e["prize"])}

    # the hand log -------------------------------------------------------------

    def _log_entry(self, e: Mapping[str, Any]) -> None:
        line = describe(self.t, e, self.who, self.you)
        if line:
            self._say(line)
        kind = e.get("type")
        if kind == "PotAwarded":
            for seat, chips in e.get("shares", []):
                self.last_winners.append(f"{self.who(int(seat))} +{chips}")
            if e.get("showdown") and int(e.get("index", 0)) == 0:
                self.showdowns += 1


# Entries told by one catalogue line: (key, the field said as {n}); {who} is the seat's player.
_LINES: dict[str, tuple[str, str | None]] = {
    "Folded": ("log.folds", None),
    "Checked": ("log.checks", None),
    "Called": ("log.calls", "amount"),
    "Raised": ("log.raises", "to"),
    "UncalledBetReturned": ("log.returned", "amount"),
    "StoodPat": ("log.stands_pat", None),
    "Discarded": ("log.discards", "count"),
    "Reshuffled": ("log.reshuffled", "size"),
    "Mucked": ("log.mucks", None),
    "RakeTaken": ("log.rake", "amount"),
    "PotCarried": ("log.carried", "amount"),
    "SatOut": ("log.sat_out", None),
    "SatIn": ("log.sat_in", None),
    "ToppedUp": ("log.topped_up", "amount"),
    "BlindsMissed": ("log.blinds_missed", None),
}


def describe(
    t: Catalogue,
    e: Mapping[str, Any],
    who: Callable[[int | None], str],
    you: int | None = None,
) -> str:
    """One log line for an entry, in the catalogue's language ("" for none)."""
    kind = str(e.get("type", ""))
    seat = e.get("seat")
    name = who(seat if isinstance(seat, int) else None)
    line = _LINES.get(kind)
    if line is not None:
        key, counted = line
        return t.t(key, who=name, n=e.get(counted, 0)) if counted else t.t(key, who=name)
    if kind == "HandStarted":
        return "── " + t.t("log.hand_started", id=e.get("hand_id", ""))
    if kind == "Posted":
        post = str(e.get("kind", "")).replace(" ", "_")
        return t.t(f"log.post.{post}", who=name, n=e.get("amount", 0))
    if kind == "CardsReceived":
        return t.t("log.you_received", cards=" ".join(e.get("cards", [])))
    if kind == "BetPlaced":
        key = "log.opens" if e.get("opened") else "log.bets"
        return t.t("log.completes" if e.get("completed") else key, who=name, n=e.get("amount", 0))
    if kind == "TimedOut":
        key = "log.timed_out_penalized" if e.get("penalized") else "log.timed_out"
        return t.t(key, who=name)
    if kind == "HandShown":
        return t.t(
            "log.shows", who=name, cards=" ".join(e.get("cards", [])), desc=e.get("description", "")
        )
    if kind == "PotAwarded":
        lines = []
        for s, chips in e.get("shares", []):
            if int(e.get("index", 0)) == 0:
                lines.append(t.t("log.wins_main", who=who(int(s)), n=chips))
            else:
                lines.append(t.t("log.wins_side", who=who(int(s)), n=chips, i=e.get("index")))
        return "; ".join(lines)
    if kind == "TimeBank":
        return t.t("log.time_bank", who=name, n=round(float(e.get("seconds", 0))))
    if kind == "PlayerSeated":
        return t.t("log.sat_down", who=e.get("name", name), n=e.get("stack", 0))
    if kind == "PlayerLeft":
        return t.t("log.left", who=e.get("name", name))
    if kind == "HandCancelled":
        return t.t("log.cancelled", id=e.get("hand_id", ""))
    if kind == "TournamentStarted":
        return t.t("log.tournament_started")
    if kind == "RegistrationClosed":
        return t.t("log.registration_closed")
    if kind == "LevelStarted":
        key = "log.level_ante" if e.get("ante") else "log.level"
        return t.t(key, level=e.get("level"), sb=e.get("small_blind"), bb=e.get("big_blind"),
                   ante=e.get("ante"))  # fmt: skip
    if kind == "PlayerMoved":
        return t.t("log.player_moved", who=e.get("name", "?"), n=e.get("to_table"))
    if kind == "Moved":
        return t.t("log.you_moved", n=e.get("table_no"))
    if kind == "TableBroken":
        return t.t("log.table_broken", n=e.get("table"))
    if kind == "FinalTable":
        return t.t("log.final_table", n=e.get("table"))
    if kind == "HandForHand":
        return t.t("log.hand_for_hand" if e.get("on") else "log.hand_for_hand_off")
    if kind == "PlayerEliminated":
        shared = "–".join(t.ordinal(int(p)) for p in e.get("places", []))
        if e.get("prize"):
            return t.t("log.eliminated_prize", who=e.get("name", "?"), places=shared, n=e["prize"])
        return t.t("log.eliminated", who=e.get("name", "?"), places=shared)
    if kind == "TournamentFinished":
        return t.t("log.tournament_won", who=e.get("name", "?"), n=e.get("prize", 0))
    if kind == "Finished":
        return finishing(t, [int(p) for p in e.get("places", [])])
    if kind == "PreActionCancelled":
        return t.t("notice.pre_cancelled")
    return ""


def finishing(t: Catalogue, places: list[int]) -> str:
    """ "You won the tournament!" or "You finished 3rd." (a shared place: "3rd–4th")."""
    if places == [1]:
        return t.t("tour.you_won")
    return t.t("tour.you_finished", place="–".join(t.ordinal(p) for p in places))
