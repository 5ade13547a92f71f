"""Bodies of the REST API's requests (``/api/...``), beside the websocket messages."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

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
