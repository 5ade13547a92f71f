"""Bodies of the REST API's requests (``/api/...``), beside the websocket messages."""

from __future__ import annotations

from typing import Annotated, ClassVar

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
