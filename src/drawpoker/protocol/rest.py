"""Bodies of the REST API's requests (``/api/...``), beside the websocket messages."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

Name = Annotated[str, Meta(pattern="^[A-Za-z][A-Za-z0-9_-]{2,19}$")]
Password = Annotated[str, Meta(min_length=8, max_length=128)]


class Credentials(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/register`` and ``/api/login``: a name of 3 to 20 letters, digits,
    ``_`` or ``-`` starting with a letter, and a password of 8 to 128 characters."""

    # What a refused field must be, in words (the REST answer's "error").
    rules: ClassVar[dict[str, str]] = {
        "name": "a name is 3 to 20 characters: letters, digits, '_' or '-', starting with a letter",
        "password": "a password is 8 to 128 characters",
    }

    name: Name
    password: Password


Role = Literal["player", "moderator", "operator", "administrator"]
Reason = Annotated[str, Meta(min_length=1, max_length=500)]


class RoleChange(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/roles`` (administrators): give an account a role, saying why."""

    rules: ClassVar[dict[str, str]] = {
        "name": Credentials.rules["name"],
        "role": "a role is player, moderator, operator or administrator",
        "reason": "a reason is 1 to 500 characters",
    }

    name: Name
    role: Role
    reason: Reason


class Adjustment(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/adjust`` (operators): add chips to a player's balance (take
    them if ``amount`` is negative) from the house, saying why."""

    rules: ClassVar[dict[str, str]] = {
        "name": Credentials.rules["name"],
        "amount": "an amount is a whole number of chips, not 0, at most 1,000,000,000 either way",
        "reason": "a reason is 1 to 500 characters",
    }

    name: Annotated[str, Meta(min_length=1, max_length=32)]
    amount: Annotated[int, Meta(ge=-1_000_000_000, le=1_000_000_000)]
    reason: Reason


class Mute(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/mute`` (moderators): refuse an account's chat for
    ``minutes`` (0 lifts a mute), saying why."""

    rules: ClassVar[dict[str, str]] = {
        "name": "a name is 1 to 32 characters",
        "minutes": "a mute lasts 0 (lifted) to 525600 minutes",
        "reason": "a reason is 1 to 500 characters",
    }

    name: Annotated[str, Meta(min_length=1, max_length=32)]
    minutes: Annotated[int, Meta(ge=0, le=525_600)]
    reason: Reason


class NewTable(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/tables`` (operators): open a cash table now, without a
    restart; it is kept in the database and opens again after one. The fields are
    a room file's (docs/deployment.md), plus the reason for the audit log."""

    rules: ClassVar[dict[str, str]] = {
        "id": "a table id is 1 to 24 lower-case letters, digits or '-', not starting with '-'",
        "name": "a name is 1 to 40 characters",
        "game": "the game is an object of rules: preset, structure, blinds or invito, max_seats",
        "min_buy_in": "a buy-in is a whole number of chips from 1 to 1,000,000,000",
        "max_buy_in": "a buy-in is a whole number of chips from 1 to 1,000,000,000",
        "action_time_s": "the action clock is 5 to 120 seconds",
        "time_bank_s": "a time bank is 0 to 600 seconds",
        "between_hands_s": "the pause between hands is 0.5 to 30 seconds",
        "bots": "house bots are 0 to 7",
        "reason": "a reason is 1 to 500 characters",
    }

    id: Annotated[str, Meta(pattern="^[a-z0-9][a-z0-9-]{0,23}$")]
    name: Annotated[str, Meta(min_length=1, max_length=40)]
    game: dict[str, Any]
    min_buy_in: Annotated[int, Meta(ge=1, le=1_000_000_000)]
    max_buy_in: Annotated[int, Meta(ge=1, le=1_000_000_000)]
    action_time_s: Annotated[float, Meta(ge=5, le=120)] = 15.0
    time_bank_s: Annotated[float, Meta(ge=0, le=600)] = 30.0
    between_hands_s: Annotated[float, Meta(ge=0.5, le=30)] = 2.0
    bots: Annotated[int, Meta(ge=0, le=7)] = 0
    practice: bool = False
    reason: Reason


class NewTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/tournaments`` (operators): schedule a tournament now, and
    ``POST /api/admin/tournaments/{id}``: change it. The fields are a room file's
    tournament (docs/deployment.md), plus the reason for the audit log."""

    rules: ClassVar[dict[str, str]] = {
        "id": "a tournament id is 1 to 20 lower-case letters, digits or '-', not starting with '-'",
        "name": "a name is 1 to 40 characters",
        "kind": "the kind is sit-and-go or scheduled",
        "structure": "the structure is no-limit, pot-limit or fixed-limit",
        "buy_in": "a buy-in is 0 to 1,000,000,000 chips",
        "fee": "a fee is 0 to 100,000,000 chips",
        "starting_stack": "a starting stack is 1 to 1,000,000,000 chips",
        "max_entries": "entries are 2 to 10,000",
        "min_entries": "entries are 2 to 10,000",
        "seats_per_table": "a table has 2 to 8 seats",
        "level_minutes": "a level lasts 0.5 to 240 minutes",
        "start_every_minutes": "a scheduled tournament starts every 1 to 10,080 minutes",
        "first_start_s": "the first start is 0 to 2,592,000 seconds away",
        "bots": "house bots are 0 to the most entries",
        "action_time_s": "the action clock is 5 to 120 seconds",
        "time_bank_s": "a time bank is 0 to 600 seconds",
        "reason": "a reason is 1 to 500 characters",
    }

    id: Annotated[str, Meta(pattern="^[a-z0-9][a-z0-9-]{0,19}$")]
    name: Annotated[str, Meta(min_length=1, max_length=40)]
    kind: Literal["sit-and-go", "scheduled"] = "sit-and-go"
    structure: Literal["no-limit", "pot-limit", "fixed-limit"] = "no-limit"
    buy_in: Annotated[int, Meta(ge=0, le=1_000_000_000)] = 100
    fee: Annotated[int, Meta(ge=0, le=100_000_000)] = 10
    starting_stack: Annotated[int, Meta(ge=1, le=1_000_000_000)] = 1500
    max_entries: Annotated[int, Meta(ge=2, le=10_000)] = 6
    min_entries: Annotated[int, Meta(ge=2, le=10_000)] = 2
    seats_per_table: Annotated[int, Meta(ge=2, le=8)] = 6
    level_minutes: Annotated[float, Meta(ge=0.5, le=240)] = 5.0
    start_every_minutes: Annotated[float, Meta(ge=1, le=10_080)] = 60.0
    first_start_s: Annotated[float, Meta(ge=0, le=2_592_000)] = 600.0
    bots: Annotated[int, Meta(ge=0, le=10_000)] = 0
    repeat: bool = True
    action_time_s: Annotated[float, Meta(ge=5, le=120)] = 15.0
    time_bank_s: Annotated[float, Meta(ge=0, le=600)] = 30.0
    reason: Reason


class TablePause(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/tables/{id}/pause`` (operators): pause a cash table (``on``;
    the hand in play ends, no other is dealt) or resume it, saying why."""

    rules: ClassVar[dict[str, str]] = {
        "on": "on is true (pause) or false (resume)",
        "reason": "a reason is 1 to 500 characters",
    }

    on: bool
    reason: Reason


class Suspension(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/suspend`` (operators): suspend an account for ``days``
    (``null``: for good, a ban; 0 lifts it), saying why."""

    rules: ClassVar[dict[str, str]] = {
        "name": "a name is 1 to 32 characters",
        "days": "a suspension lasts 0 (lifted) to 3650 days, or null (for good)",
        "reason": "a reason is 1 to 500 characters",
    }

    name: Annotated[str, Meta(min_length=1, max_length=32)]
    days: Annotated[int, Meta(ge=0, le=3650)] | None
    reason: Reason


class Report(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/reports`` (logged in): report a chat line (``kind`` chat, with
    ``table``, ``about``: who said it, and ``text``) or a hand you played (``kind``
    hand, with ``hand``) to the staff, with an optional ``note``."""

    rules: ClassVar[dict[str, str]] = {
        "kind": "a report is about a chat line (chat) or a hand (hand)",
        "table": "a table id is 1 to 48 characters",
        "hand": "a hand id is 1 to 48 characters",
        "about": "a name is 1 to 32 characters",
        "text": "a chat line is 1 to 280 characters",
        "note": "a note is at most 500 characters",
    }

    kind: Literal["chat", "hand"]
    table: Annotated[str, Meta(max_length=48)] = ""
    hand: Annotated[str, Meta(max_length=48)] = ""
    about: Annotated[str, Meta(max_length=32)] = ""
    text: Annotated[str, Meta(max_length=280)] = ""
    note: Annotated[str, Meta(max_length=500)] = ""


class Closing(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/reports/{id}/close`` (moderators): what was done;
    ``POST /api/admin/tables/{id}/close`` (operators): why the table closes."""

    rules: ClassVar[dict[str, str]] = {"reason": "a reason is 1 to 500 characters"}

    reason: Reason


class ChatDeletion(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/chat/delete`` (moderators): delete the line in which
    ``name`` said ``text`` at ``table`` from everyone's chat, saying why."""

    rules: ClassVar[dict[str, str]] = {
        "table": "a table id is 1 to 48 characters",
        "name": "a name is 1 to 32 characters",
        "text": "a chat line is 1 to 280 characters",
        "reason": "a reason is 1 to 500 characters",
    }

    table: Annotated[str, Meta(min_length=1, max_length=48)]
    name: Annotated[str, Meta(min_length=1, max_length=32)]
    text: Annotated[str, Meta(min_length=1, max_length=280)]
    reason: Reason


class SeatOrder(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/admin/seat`` (moderators): sit a player out at a cash table
    (``sit_out``) or stand them up from it (``kick``: cashed out when the hand
    in play ends), saying why."""

    rules: ClassVar[dict[str, str]] = {
        "name": "a name is 1 to 32 characters",
        "table": "a table id is 1 to 48 characters",
        "action": "the action is sit_out or kick",
        "reason": "a reason is 1 to 500 characters",
    }

    name: Annotated[str, Meta(min_length=1, max_length=32)]
    table: Annotated[str, Meta(min_length=1, max_length=48)]
    action: Literal["sit_out", "kick"]
    reason: Reason
