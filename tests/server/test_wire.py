"""The bus's messages between processes: what goes in comes out, refusals keep
their kind, and anything that is not a bus message is refused."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawpoker.protocol import client
from drawpoker.server import wire
from drawpoker.server.auth import Account
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.errors import TableError
from drawpoker.server.tournament.run import Refused

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abcxyz", max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
accounts = st.builds(
    Account,
    st.integers(1, 2**31),
    st.text(min_size=1, max_size=20),
    st.sampled_from(["user", "guest", "bot"]),
)
messages = st.sampled_from(
    [
        client.Sit(table="t1", seat=3, buy_in=200),
        client.Act(table="t1", hand_id="h1", action_id="a1", action="raise", amount=40),
        client.Draw(table="t1", hand_id="h1", action_id="a2", discard=["Ah", "2c"]),
        client.Chat(table="t1", text="gl"),
    ]
)


@given(st.dictionaries(st.text(min_size=1, max_size=10), plain | accounts | messages, max_size=6))
def test_arguments_come_back_as_they_went(args: dict[str, Any]) -> None:
    message = ["a", 7, "host-1-ab", "t:t1", "act", wire.args_out(args)]
    back = wire.unpack(wire.pack(message))
    assert back[:5] == message[:5]
    assert wire.args_in(back[5]) == args


def test_answers_are_plain_values() -> None:
    row = {"seat": 3, "stack": 200, "cards": ["Ah", "Kd"], "nested": {"x": [1, None]}}
    assert wire.unpack(wire.pack(["r", 1, True, wire.value_out(row)]))[3] == row

    class State(msgspec.Struct):
        table: str
        seats: list[int]

    assert wire.value_out(State("t1", [1, 2])) == {"table": "t1", "seats": [1, 2]}


@pytest.mark.parametrize(
    ("problem", "kind"),
    [
        (TableError("not_your_turn", "wait for your turn"), TableError),
        (Refused(409, "already registered"), Refused),
        (Moving("t:t1"), Moving),
        (NoOwner("t:nope"), NoOwner),
        (ValueError("illegal: raise below the minimum"), ValueError),
    ],
)
def test_refusals_keep_their_kind_and_words(problem: Exception, kind: type[Exception]) -> None:
    back = wire.refusal_in(wire.unpack(wire.pack(["r", 1, False, wire.refusal_out(problem)]))[3])
    assert type(back) is kind
    assert str(back) == str(problem)
    if isinstance(problem, TableError):
        assert isinstance(back, TableError)
        assert back.code == problem.code
    if isinstance(problem, Refused):
        assert isinstance(back, Refused)
        assert back.status == problem.status


def test_a_failure_says_only_its_kind() -> None:
    """An unexpected exception's text (which may hold anything) stays in its process."""
    refusal = wire.refusal_out(KeyError("secret detail"))
    assert refusal == ["internal", "", "KeyError"]
    assert isinstance(wire.refusal_in(refusal), RuntimeError)


@pytest.mark.parametrize(
    "raw", [b"", b"\x91", b"\xa3abc", wire.pack([]), msgspec.msgpack.encode({"a": 1})]
)
def test_what_is_not_a_bus_message_is_refused(raw: bytes) -> None:
    with pytest.raises((ValueError, msgspec.DecodeError)):
        wire.unpack(raw)
