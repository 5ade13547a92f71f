"""Folded and mucked hands stay private (docs/security.md, issue 17 item 4).

Real clients play at a table where one player folds whenever a bet reaches them
and losers muck (``reveal = winners``). Then four attackers gather everything
they can fetch — a spectator without an account, a logged-in account that
never played, and two players of the hands — every frame, every REST answer
about every hand they heard of, every download, and try to rebuild the hands:
from any 64-hex string taken as a seed, and from every card named anywhere.
None may learn a card that was not shown at the table (their own aside). The
truth comes from the server's database. A second table reveals its seeds
(``reveal_seed``): there the seed is public and the whole deal verifies.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from drawpoker.cards import parse_card
from drawpoker.deck import commitment
from drawpoker.history import phh
from drawpoker.server.store import database_url, hands

from .helpers import Client, Server, table
from .test_server_play import play as play_on

pytestmark = pytest.mark.slow

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
HEX64 = re.compile(r"[0-9a-f]{64}")
ROUTES = ("", "/phh", "/pokerstars", "/verify", "/seats")


async def play(client: Client, table_id: str, stop: asyncio.Event, folder: bool) -> None:
    """Act on every ``Legal`` for me: the folder folds to any bet; the others call
    or check and draw three."""
    await play_on(client, table_id, stop, {}, max_call=0 if folder else None, discard=3)


def cards_in_json(value: Any) -> set[int]:
    """Every card named anywhere in JSON data."""
    out: set[int] = set()
    if isinstance(value, str):
        if CARD.match(value):
            out.add(int(parse_card(value)))
    elif isinstance(value, dict):
        for item in value.values():
            out |= cards_in_json(item)
    elif isinstance(value, list):
        for item in value:
            out |= cards_in_json(item)
    return out


def cards_in_phh(text: str) -> set[int]:
    data = phh.loads(text)
    out: set[int] = set()
    for action in data.get("actions", []):
        token = action.split("#", 1)[0].split()[-1:] if not action.startswith("#") else []
        if action.startswith("# openers"):
            token = [action.split()[3]]
        for word in token:
            pairs = [word[i : i + 2] for i in range(0, len(word), 2)]
            out |= {int(parse_card(p)) for p in pairs if CARD.match(p)}
    return out | cards_in_json(data.get("_openings", []))


def cards_in_pokerstars(text: str) -> set[int]:
    out: set[int] = set()
    for inside in re.findall(r"\[([^\]]*)\]", text):
        out |= {int(parse_card(w)) for w in inside.split() if CARD.match(w)}
    return out


class Loot:
    """What one attacker gathered, by hand: the cards named, and every text."""

    def __init__(self) -> None:
        self.cards: dict[str, set[int]] = {}
        self.texts: list[str] = []

    def add(self, hand_id: str, cards: set[int], text: str) -> None:
        self.cards.setdefault(hand_id, set()).update(cards)
        self.texts.append(text)


def loot_frames(client: Client, table_id: str) -> Loot:
    loot = Loot()
    current = ""
    for frame, raw in zip(client.frames, client.raw, strict=True):
        if frame.get("table") not in (None, table_id):
            continue
        if frame["type"] == "snapshot":
            hand = frame["state"].get("hand") or {}
            current = hand.get("hand_id", current)
            last = frame["state"].get("last_hand") or {}
            if last:
                loot.add(last["hand_id"], cards_in_json(last), raw)
        elif frame["type"] == "event" and frame["event"]["type"] == "HandStarted":
            current = frame["event"]["hand_id"]
        loot.add(current, cards_in_json(frame), raw)
    return loot


def loot_rest(server: Server, loot: Loot, token: str | None, hand_ids: set[str]) -> dict[str, int]:
    """Fetch every route of every hand; return the status codes seen."""
    cookies = {"dp_session": token} if token else {}
    statuses: dict[str, int] = {}
    listing = httpx.get(server.url + "/api/hands", cookies=cookies, timeout=10)
    loot.texts.append(listing.text)
    for hand_id in hand_ids:
        for route in ROUTES:
            answer = httpx.get(
                f"{server.url}/api/hands/{hand_id}{route}", cookies=cookies, timeout=10
            )
            statuses[f"{hand_id}{route}"] = answer.status_code
            text = answer.text
            if answer.status_code != 200:
                loot.add(hand_id, set(), text)
            elif route == "/phh":
                loot.add(hand_id, cards_in_phh(text), text)
            elif route == "/pokerstars":
                loot.add(hand_id, cards_in_pokerstars(text), text)
            else:
                loot.add(hand_id, cards_in_json(answer.json()), text)
    return statuses


def truth(tmp_path: Path) -> dict[str, dict[str, Any]]:
    """Every stored hand: its seed, commitment, each seat's cards, the cards shown."""
    engine = create_engine(database_url(None, tmp_path / "data"))
    out: dict[str, dict[str, Any]] = {}
    with engine.connect() as c:
        for hand_id, seed, digest, history, players in c.execute(
            select(hands.c.id, hands.c.seed, hands.c.commitment, hands.c.history, hands.c.players)
        ):
            held: dict[int, set[int]] = {}
            shown: set[int] = set()
            folded: set[int] = set()
            for _, e in json.loads(history or "[]"):
                if e["type"] == "CardsReceived":
                    held.setdefault(e["seat"], set()).update(int(parse_card(x)) for x in e["cards"])
                elif e["type"] in ("HandShown", "OpenersShown"):
                    shown.update(int(parse_card(x)) for x in e["cards"])
                elif e["type"] in ("Folded", "Mucked"):
                    folded.add(e["seat"])
            accounts = {int(seat): account for seat, (account, _) in json.loads(players).items()}
            out[hand_id] = {
                "seed": seed,
                "commitment": digest,
                "held": held,
                "shown": shown,
                "hidden": folded,
                "accounts": accounts,
            }
    engine.dispose()
    return out


def test_nobody_rebuilds_a_folded_or_mucked_hand_from_anything_they_can_fetch(
    tmp_path: Path,
) -> None:
    private = table("pv", seats=4, action_time=2.0)
    private["rules"]["reveal"] = "winners"  # losers muck
    revealing = table("rv", seats=2, action_time=2.0, reveal_seed=True)
    server = Server(tmp_path, None, [private, revealing]).start()
    try:
        asyncio.run(_attack(server, tmp_path))
    finally:
        server.stop()


async def _attack(server: Server, tmp_path: Path) -> None:
    guests = [server.guest() for _ in range(4)]
    stranger = server.guest()
    players = [await Client(server, g["token"], f"p{i}").connect() for i, g in enumerate(guests)]
    spectator = await Client(server, None, "spectator").connect()
    watcher = await Client(server, stranger["token"], "stranger").connect()
    for viewer in (spectator, watcher):
        assert (await viewer.request({"type": "subscribe", "table": "pv"}))["type"] == "ok"
    for i, p in enumerate(players):
        reply = await p.request({"type": "sit", "table": "pv", "seat": i + 1, "buy_in": 400})
        assert reply["type"] == "ok", reply
        p.seat["pv"] = i + 1
        await p.send({"type": "entropy", "table": "pv", "text": f"luck of p{i}"})
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play(p, "pv", stop, folder=i == 0)) for i, p in enumerate(players)]
    for _ in range(120):  # bounded: 6 hands, or at most 60 s
        ended = sum(1 for e in spectator.events("pv") if e["type"] == "HandEnded")
        if ended >= 6:
            break
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(0.5)  # the last hand's record is written
    await asyncio.gather(*(c.close() for c in [*players, spectator, watcher]))

    stored = truth(tmp_path)
    dealt = {e["hand_id"] for e in spectator.events("pv") if e["type"] == "HandStarted"}
    finished = {h for h in dealt if h in stored and stored[h]["held"]}
    assert len(finished) >= 5, (dealt, list(stored))
    # The attack is worth making: folded and mucked hands with cards in them.
    hidden = sum(len(stored[h]["hidden"]) for h in finished)
    assert hidden >= 3
    attackers: list[tuple[str, Client, str | None, int | None]] = [
        ("spectator", spectator, None, None),
        ("stranger", watcher, stranger["token"], None),
        ("folder", players[0], guests[0]["token"], 1),
        ("caller", players[1], guests[1]["token"], 2),
    ]
    for name, client, token, seat in attackers:
        loot = loot_frames(client, "pv")
        statuses = loot_rest(server, loot, token, dealt)
        for hand_id in finished:
            truth_of = stored[hand_id]
            # 1. No seed: not the hand's, not any string that commits like one.
            for text in loot.texts:
                assert truth_of["seed"] not in text, f"{name} holds the seed of {hand_id}"
            # 2. No card that was not shown, unless the attacker held it.
            mine = truth_of["held"].get(seat, set()) if seat in truth_of["accounts"] else set()
            allowed = truth_of["shown"] | mine
            learned = loot.cards.get(hand_id, set()) - allowed
            assert not learned, f"{name} learns {sorted(learned)} of {hand_id}"
            played = seat is not None and seat in truth_of["accounts"]
            for route in ROUTES:
                status = statuses[f"{hand_id}{route}"]
                if token is None:
                    assert status == 401, (name, route, status)
                elif not played:
                    assert status == 404, (name, route, status)  # as if it did not exist
                else:
                    assert status == 200, (name, route, status)
        tokens = {t for text in loot.texts for t in HEX64.findall(text)}
        commitments = {stored[h]["commitment"] for h in finished}
        for candidate in tokens:
            assert commitment(bytes.fromhex(candidate)) not in commitments, (
                f"{name} found a seed: {candidate}"
            )
        if seat is not None:  # a player verifies their own cards against the commitment
            for hand_id in finished:
                if seat not in stored[hand_id]["accounts"]:
                    continue
                verdict = httpx.get(
                    f"{server.url}/api/hands/{hand_id}/verify",
                    cookies={"dp_session": token or ""},
                    timeout=10,
                ).json()
                assert verdict["ok"] is True, verdict
                assert verdict["opened"] >= 5
                assert verdict["seed"] is None
    # The players mixed their entropy in: a hand after it carries it.
    started = [e for e in spectator.events("pv") if e["type"] == "HandStarted"]
    assert any(len(e.get("entropy", ())) >= 2 for e in started), started[:2]
    assert all(e.get("next_commitment") for e in started)
    await _revealing_table(server)


async def _revealing_table(server: Server) -> None:
    """A table with ``reveal_seed``: the seed goes to everyone, and the whole deal
    verifies from it (the trade-off: so would every folded hand)."""
    guests = [server.guest() for _ in range(2)]
    players = [await Client(server, g["token"], f"r{i}").connect() for i, g in enumerate(guests)]
    spectator = await Client(server, None, "spectator").connect()
    assert (await spectator.request({"type": "subscribe", "table": "rv"}))["type"] == "ok"
    for i, p in enumerate(players):
        reply = await p.request({"type": "sit", "table": "rv", "seat": i + 1, "buy_in": 400})
        assert reply["type"] == "ok", reply
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play(p, "rv", stop, folder=False)) for p in players]
    revealed = await spectator.wait(
        lambda f: f["type"] == "event" and f["event"]["type"] == "DeckRevealed", 60
    )
    stop.set()
    await asyncio.gather(*tasks)
    events = spectator.events("rv")
    started = next(e for e in events if e["type"] == "HandStarted")
    seed = revealed["event"]["seed"]
    assert commitment(bytes.fromhex(seed)) == started["commitment"]
    # The room's seed was committed to before, and the deck seed is made from it.
    from drawpoker.fairness import mix

    server_seed = bytes.fromhex(revealed["event"]["server_seed"])
    assert hashlib.sha256(server_seed).hexdigest() == started["server_commitment"]
    entropy = [(seat, digest) for seat, digest in started["entropy"]]
    assert mix(server_seed, entropy).hex() == seed
    await asyncio.sleep(0.5)
    verdict = httpx.get(
        f"{server.url}/api/hands/{started['hand_id']}/verify",
        cookies={"dp_session": guests[0]["token"]},
        timeout=10,
    ).json()
    assert verdict["ok"] is True, verdict
    assert verdict["seed"] == seed
    assert verdict["cards"] >= 10
    await asyncio.gather(*(c.close() for c in [*players, spectator]))


def test_the_seed_reveal_setting_is_documented() -> None:
    root = Path(__file__).resolve().parents[2]
    fairness = (root / "docs" / "fairness.md").read_text()
    assert "reveal_seed" in fairness
    assert "trade-off" in fairness
    security = (root / "docs" / "security.md").read_text()
    assert "test_nobody_rebuilds_a_folded_or_mucked_hand_from_anything_they_can_fetch" in security
