"""PokerStars text that trackers import, and a round trip that keeps every chip.

The line patterns below are written for this test after the expressions with which
fpdb's PokerStars importer (``PokerStarsToFpdb.py``, its ``re_GameInfo`` /
``re_game_info``, ``re_HandInfo``, ``re_PlayerInfo``, the post, action and
collect expressions, and the street markers of its ``markStreets`` for single-draw
games) recognises a 5 Card Draw hand: they accept what those accept for the lines
we write (numbers without thousands separators, our currency symbols), and are
checked here against the real PokerStars sample too. Hold'em Manager and
PokerTracker read the same lines.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from drawpoker.actions import Action
from drawpoker.events import PostKind
from drawpoker.hand import Hand
from drawpoker.history import HandInfo, Tournament, loads, pokerstars, pokerstars_read, replay
from drawpoker.history.phh import render
from drawpoker.history.pokerstars import eastern, hand_number
from drawpoker.rules import Rules
from drawpoker.tools.simulate import random_action

REFERENCE = Path("/work/shared/reference")
CUR = r"(?:\$|€|£|)"
NUM = r"[,.0-9]+"
LIMIT = r"(?:No Limit|Pot Limit|Limit)"

# The header: a numeric hand number, optional tournament number and buy-in, the game
# and limit, an optional level, the stakes in parentheses, then " - " and the time.
HEADER = re.compile(
    r"^PokerStars (?:Hand|Game) #(?P<HID>[0-9]+):\s+"
    r"(?:Tournament #(?P<TOURNO>\d+), (?:[$€£\d.]+)?\+?(?:[$€£\d.]+)?\s?(?:USD|EUR|GBP)?\s+)?"
    rf"(?P<GAME>5 Card Draw) (?P<LIMIT>{LIMIT}),?\s(?:-\s)?(?:Level (?P<LEVEL>[IVXLC]+) )?"
    rf"\((?P<CUR>{CUR})(?P<SB>[.0-9]+)/{CUR}(?P<BB>[.0-9]+)\s?(?:USD|EUR|GBP)?\)"
    r" - (?P<DATETIME>.*)$"
)
# The time trackers use: the last "YYYY/MM/DD H:MM:SS" of the header, the ET one.
DATETIME = re.compile(r"(?P<Y>[0-9]{4})/(?P<M>[0-9]{2})/(?P<D>[0-9]{2})[- ]+"
                      r"(?P<H>[0-9]+):(?P<MIN>[0-9]+):(?P<S>[0-9]+)")  # fmt: skip
TABLE = re.compile(r"^Table '(?P<TABLE>[-\ #a-zA-Z\d]+)' (?P<MAX>\d+)-max Seat #(?P<BUTTON>\d+) "
                   r"is the button$")  # fmt: skip
SEAT = re.compile(rf"^Seat (?P<SEAT>[0-9]+): (?P<PNAME>.*) \({CUR}(?P<CASH>{NUM}) in chips\)$")
POSTS = re.compile(
    rf"^(?P<PNAME>.+?): posts (?:small blind|big blind|the ante|small & big blinds) "
    rf"{CUR}(?P<AMT>{NUM})(?: and is all-in)?$"
)
ACTION = re.compile(
    rf"^(?P<PNAME>.+?):(?P<ATYPE> bets| checks| raises| calls| folds| discards| stands pat)"
    rf"(?: {CUR}(?P<BET>{NUM}))?(?: to {CUR}(?P<BETTO>{NUM}))?\s*(?:and is all.in)?"
    r"(?: cards?(?: \[(?P<CARDS>.+?)\])?)?\s*$"
)
DEALT = re.compile(r"^Dealt to (?P<PNAME>.+?)(?: \[(?P<OLD>.+?)\])?(?: \[(?P<NEW>.+?)\])$")
SHOWS = re.compile(r"^(?P<PNAME>.+?): shows \[(?P<CARDS>.*)\]")
COLLECT = re.compile(rf"^(?P<PNAME>.+?) collected {CUR}(?P<POT>{NUM}) from (?:main |side )?pot")
UNCALLED = re.compile(rf"^Uncalled bet \({CUR}(?P<BET>{NUM})\) returned to (?P<PNAME>.+)$")
BRKTS = (r"(?:\(button\) |\(small blind\) |\(big blind\) |\(button\) \(small blind\) "
         r"|\(button\) \(big blind\) )?")  # fmt: skip
SUMMARY_COLLECT = re.compile(
    rf"^Seat (?P<SEAT>[0-9]+): (?P<PNAME>.+?) {BRKTS}(?:collected|showed \[.*\] and won) "
    rf"\({CUR}(?P<POT>{NUM})\)"
)
TOTAL = re.compile(rf"^Total pot {CUR}(?P<POT>{NUM})(?: Main pot .*)? \| Rake {CUR}{NUM}$")
MARKERS = ("*** DEALING HANDS ***", "*** SHOW DOWN ***", "*** SUMMARY ***")
# Lines that trackers read past without a pattern of their own.
OTHER = re.compile(
    r"^(?:.+ has timed out|.+: mucks hand|.+: doesn't show hand|Seat \d+: .+"
    r"|The stub and the discards are reshuffled \(\d+ cards\))$"  # our own line (R24)
)


def check_importable(text: str) -> None:
    """Every line of a hand is one a tracker reads, and the money adds up."""
    lines = text.rstrip("\n").split("\n")
    head = HEADER.match(lines[0])
    assert head, lines[0]
    times = DATETIME.findall(head["DATETIME"])
    assert times, lines[0]
    assert TABLE.match(lines[1]), lines[1]
    players = {}
    k = 2
    while k < len(lines) and (m := SEAT.match(lines[k])):
        players[m["PNAME"]] = int(m["CASH"])
        k += 1
    assert len(players) >= 2
    summary = False
    for line in lines[k:]:
        if line in MARKERS:
            summary = summary or line == "*** SUMMARY ***"
            continue
        if summary:
            assert TOTAL.match(line) or line.startswith("Seat "), line
            continue
        matched = [p for p in (POSTS, ACTION, DEALT, SHOWS, COLLECT, UNCALLED, OTHER)
                   if p.match(line)]  # fmt: skip
        assert matched, f"no tracker reads {line!r}"
        for pattern in (POSTS, ACTION, SHOWS, COLLECT, UNCALLED):
            if (m := pattern.match(line)) and "PNAME" in pattern.groupindex:
                assert m["PNAME"] in players, line


def money(text: str) -> dict[str, int]:
    """What a tracker computes for each player from the lines: collected minus put in."""
    lines = text.rstrip("\n").split("\n")
    net: dict[str, int] = {}
    wager: dict[str, int] = {}
    big = 0
    for line in lines:
        if line.startswith(("*** SUMMARY", "*** SHOW DOWN")):
            break
        if m := POSTS.match(line):
            net[m["PNAME"]] = net.get(m["PNAME"], 0) - int(m["AMT"])
            if "big blind " in line:
                big = max(big, int(m["AMT"]))
            if "the ante" not in line:
                # Of small & big blinds, the big blind is live, the small blind dead.
                live = int(m["AMT"]) if "small & big" not in line else big
                dead_small = " small blind " in line and big  # posted after the big blind
                wager[m["PNAME"]] = wager.get(m["PNAME"], 0) + (0 if dead_small else live)
        elif (m := ACTION.match(line)) and m["ATYPE"] in (" bets", " calls", " raises"):
            who = m["PNAME"]
            if m["ATYPE"] == " raises":
                chips = int(m["BETTO"]) - wager.get(who, 0)
                wager[who] = int(m["BETTO"])
            else:
                chips = int(m["BET"])
                wager[who] = wager.get(who, 0) + chips
            net[who] = net.get(who, 0) - chips
        elif (m := ACTION.match(line)) and m["ATYPE"] in (" discards", " stands pat"):
            wager = {}
        elif m := UNCALLED.match(line):
            net[m["PNAME"]] = net.get(m["PNAME"], 0) + int(m["BET"])
    for line in lines:
        if m := COLLECT.match(line):
            net[m["PNAME"]] = net.get(m["PNAME"], 0) + int(m["POT"])
    return net


# ----------------------------------------------------------- the real files


def reference_texts() -> list[Path]:
    return sorted(REFERENCE.glob("pokerstars-*.txt")) if REFERENCE.exists() else []


@pytest.mark.skipif(not reference_texts(), reason="the shared reference is not here")
def test_the_patterns_read_the_real_pokerstars_files() -> None:
    """The patterns are checked against PokerStars' own 5 Card Draw files."""
    for path in reference_texts():
        for lines in pokerstars_read.split_hands(path.read_text()):
            check_importable("\n".join(lines))


# --------------------------------------------------------------- the header


def test_hand_numbers_are_numeric_stable_and_distinct() -> None:
    assert hand_number("153148513639") == "153148513639"  # a PokerStars number is kept
    number = hand_number("nl-2-6-42")
    assert number.isdigit()
    assert int(number) < 2**63
    assert hand_number("nl-2-6-42") == number  # the same in every export
    ids = [f"table-{t}-{n}" for t in range(20) for n in range(2000)]
    assert len({hand_number(i) for i in ids}) == len(ids)
    assert len(pokerstars.tournament_number("sng-7")) <= 10


@pytest.mark.parametrize(
    ("utc", "et"),
    [
        (dt.datetime(2026, 1, 15, 12, 0, 0), "2026/01/15 7:00:00"),  # EST
        (dt.datetime(2026, 7, 4, 3, 5, 9), "2026/07/03 23:05:09"),  # EDT, the day before
        (dt.datetime(2026, 3, 8, 6, 59, 59), "2026/03/08 1:59:59"),  # just before DST
        (dt.datetime(2026, 3, 8, 7, 0, 0), "2026/03/08 3:00:00"),  # DST starts
        (dt.datetime(2026, 11, 1, 5, 59, 59), "2026/11/01 1:59:59"),  # EDT still
        (dt.datetime(2026, 11, 1, 6, 0, 0), "2026/11/01 1:00:00"),  # EST again
        (dt.datetime(2016, 5, 11, 7, 23, 37), "2016/05/11 3:23:37"),  # the sample's hand
    ],
)
def test_eastern_time(utc: dt.datetime, et: str) -> None:
    t = eastern(utc)
    assert f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}" == et


def test_header_prints_utc_and_et_as_pokerstars_does() -> None:
    hand = Hand(Rules.online(), {1: 100, 2: 100}, 1, seed=bytes(32), hand_id="nl-1-7")
    hand.act(Action.fold(1))
    when = dt.datetime(2026, 11, 29, 14, 30, 5)
    text = pokerstars.write(hand, HandInfo(time=when, currency="USD", currency_symbol="$"))
    first = text.split("\n")[0]
    assert first == (
        f"PokerStars Hand #{hand_number('nl-1-7')}:  5 Card Draw No Limit ($1/$2 USD)"
        " - 2026/11/29 14:30:05 UTC [2026/11/29 9:30:05 ET]"
    )
    aware = when.replace(tzinfo=dt.timezone(dt.timedelta(hours=1)))  # 13:30:05 UTC
    first = pokerstars.write(hand, HandInfo(time=aware)).split("\n")[0]
    assert first.endswith(" - 2026/11/29 13:30:05 UTC [2026/11/29 8:30:05 ET]")
    check_importable(text)
    assert money(text) == {"Player1": -1, "Player2": 1}


def test_tournament_header_and_table() -> None:
    hand = Hand(Rules.online(small_blind=10, big_blind=20), {1: 1500, 2: 1500, 3: 1500}, 1,
                seed=bytes(32), hand_id="sng-7-1-12")  # fmt: skip
    hand.apply([Action.fold(1), Action.fold(2)])
    info = HandInfo(
        tournament=Tournament(id="sng-7", buy_in="$10", fee="$1", level=3),
        table="1",
        time=dt.datetime(2026, 11, 29, 14, 30, 5),
        currency="USD",
    )
    text = pokerstars.write(hand, info)
    number = pokerstars.tournament_number("sng-7")
    head = HEADER.match(text.split("\n")[0])
    assert head
    assert head["TOURNO"] == number
    assert head["LEVEL"] == "III"
    assert text.split("\n")[1] == f"Table '{number} 1' 6-max Seat #1 is the button"
    check_importable(text)


# -------------------------------------------------------------- dead blinds


def test_dead_small_blind_is_written_as_pokerstars_writes_it() -> None:
    rules = Rules.online(max_seats=6)
    posts = [(2, PostKind.SMALL_BLIND, 1), (3, PostKind.BIG_BLIND, 2),
             (5, PostKind.BIG_BLIND, 2), (5, PostKind.DEAD_SMALL_BLIND, 1),
             (6, PostKind.DEAD_SMALL_BLIND, 1)]  # fmt: skip
    stacks = {1: 100, 2: 100, 3: 100, 5: 100, 6: 100}
    hand = Hand(rules, stacks, 1, seed=bytes(32), posts=posts, hand_id="c-1")
    rng = random.Random(3)
    while (legal := hand.legal_actions()) is not None:
        hand.act(random_action(legal, rng))
    text = pokerstars.write(hand, HandInfo(time=dt.datetime(2026, 1, 1)))
    assert "Player5: posts small & big blinds 3\n" in text
    assert "Player6: posts small blind 1\n" in text  # after the big blind: dead
    assert "dead" not in text
    check_importable(text)
    assert money(text) == {f"Player{s}": n for s, n in hand.result.net.items() if n}
    (record,) = pokerstars_read.read_all(text)
    assert record.posts == posts
    again = replay(loads(render(record)))
    assert again.hand.result.net == hand.result.net


# ------------------------------------------------------- a long simulation


def table_rules(rng: random.Random) -> tuple[Rules, bool]:
    """A random table: (rules, explicit posts wanted)."""
    kind = rng.choice(["nl", "pl", "fl", "italian"])
    if kind == "italian":
        return Rules.italian(
            max_seats=rng.randint(2, 6),
            invito=rng.randint(1, 10),
            invito_others=rng.choice(["none", "half", "one_less", "same"]),
            openers_check=rng.choice(["server", "showdown", "on_request"]),
            false_opener_penalty=rng.choice(["pot", 15]),
            checked_pot_stays=rng.random() < 0.5,
        ), False
    structure = {"nl": "no-limit", "pl": "pot-limit", "fl": "fixed-limit"}[kind]
    rules = Rules.online(
        structure=structure,
        max_seats=rng.randint(2, 8),
        antes=rng.choice([0, 0, 1]),
        reveal=rng.choice(["all", "winners"]),
    )
    return rules, rng.random() < 0.4


def simulated_hands(count: int, seed: int) -> list[tuple[Hand, HandInfo]]:
    rng = random.Random(seed)
    out: list[tuple[Hand, HandInfo]] = []
    rules, explicit = table_rules(rng)
    carried = 0
    for number in range(count):
        if number % 50 == 0:
            rules, explicit = table_rules(rng)
            carried = 0
        seats = sorted(rng.sample(range(1, rules.max_seats + 1),
                                  rng.randint(2, rules.max_seats)))  # fmt: skip
        stacks = {s: rng.randint(1, 300) for s in seats}
        button = rng.choice(seats)
        posts = None
        if explicit and len(seats) >= 3:
            order = [s for s in seats if s > button] + [s for s in seats if s <= button]
            posts = [(order[0], PostKind.SMALL_BLIND, rules.small_blind),
                     (order[1], PostKind.BIG_BLIND, rules.big_blind)]  # fmt: skip
            for s in order[2:]:
                plan = rng.choice(["", "", "back", "new", "small"])
                if plan == "back":
                    posts += [(s, PostKind.BIG_BLIND, rules.big_blind),
                              (s, PostKind.DEAD_SMALL_BLIND, rules.small_blind)]  # fmt: skip
                elif plan == "new":
                    posts.append((s, PostKind.BIG_BLIND, rules.big_blind))
                elif plan == "small":
                    posts.append((s, PostKind.DEAD_SMALL_BLIND, rules.small_blind))
        hand = Hand(rules, stacks, button, seed=rng.randbytes(32), posts=posts,
                    carried_pot=carried if rules.is_italian else 0,
                    hand_id=f"sim-{seed}-{number}")  # fmt: skip
        while (legal := hand.legal_actions()) is not None:
            hand.act(random_action(legal, rng, timeout_rate=0.03))
        carried = hand.result.carried_pot
        tour = Tournament(id=f"mtt-{seed}", buy_in="$5", fee="$0.50", level=2)
        info = HandInfo(
            names={s: f"Player {s}" for s in seats},
            table="Ostia",
            time=dt.datetime(2026, 1, 1) + dt.timedelta(minutes=number),
            tournament=tour if number % 7 == 0 and not rules.is_italian else None,
        )
        out.append((hand, info))
    return out


@pytest.mark.slow
def test_round_trip_of_a_long_simulation_keeps_every_chip() -> None:
    """Every hand -> PokerStars text -> the project's reader -> the engine: the same
    money for every player; and every online-preset hand is one trackers import."""
    hands = simulated_hands(1500, seed=16)
    text = "\n\n".join(pokerstars.write(h, info) for h, info in hands)
    records = pokerstars_read.read_all(text)
    assert len(records) == len(hands)
    openers_requested = dead_blinds = 0
    for (hand, _), record in zip(hands, records, strict=True):
        again = replay(loads(render(record))).hand
        result = hand.result
        assert again.result.net == result.net, record.hand
        assert again.result.carried_pot == result.carried_pot, record.hand
        assert record.hand == hand_number(hand.hand_id)
        openers_requested += any(a.endswith(" ask") for a in record.actions)
        dead_blinds += any(kind is PostKind.DEAD_SMALL_BLIND for _, kind, _ in record.posts or ())
    for hand, info in hands:
        if not hand.rules.is_italian:
            written = pokerstars.write(hand, info)
            check_importable(written)
            expected = {info.name(s): n for s, n in hand.result.net.items() if n}
            assert {k: v for k, v in money(written).items() if v} == expected
    assert openers_requested >= 10
    assert dead_blinds >= 20


def test_round_trip_of_a_short_simulation() -> None:
    hands = simulated_hands(150, seed=5)
    text = "\n\n".join(pokerstars.write(h, info) for h, info in hands)
    for (hand, _), record in zip(hands, pokerstars_read.read_all(text), strict=True):
        assert replay(loads(render(record))).hand.result.net == hand.result.net


def test_a_players_own_view_is_importable() -> None:
    for hand, info in simulated_hands(100, seed=9):
        if hand.rules.is_italian:
            continue
        viewer = hand.players[0].seat
        text = pokerstars.write(hand, info, viewer=viewer)
        check_importable(text)
        dealt = [line for line in text.split("\n") if line.startswith("Dealt to ")]
        assert all(line.startswith(f"Dealt to {info.name(viewer)} [") for line in dealt)
