"""Replay from any point: finished hands, decision points, and errors that name the line."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from drawpoker.cli import main
from drawpoker.history import HistoryError, dumps, dumps_all, loads, loads_all, pokerstars, replay
from drawpoker.history.replay import decision_point, outcome
from drawpoker.rules import Rules
from drawpoker.tools.samples import random_hand

PL = Rules.online(structure="pot-limit")
HEAD = """variant = 'P5CD'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200]
actions = ['d dh p1 AsAd7c5h2s', 'd dh p2 KcKh9d8s3c', 'd dh p3 QsJsTs4d2h', 'd dh p4 9c8c7d6d5d',
"""


def history(*actions: str) -> str:
    return HEAD + "".join(f"  '{a}',\n" for a in actions) + "]\n"


def test_pot_limit_maximum_names_the_action() -> None:
    with pytest.raises(HistoryError) as info:
        replay(loads(history("p3 cbr 7", "p4 cbr 25")), source="x.phh", number=3)
    assert str(info.value) == (
        "x.phh: hand 3, action 6 'p4 cbr 25': pot-limit maximum raise is to 24 (R18)"
    )


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (("p3 cbr 7", "p4 cbr 10"), "action 6 'p4 cbr 10': minimum raise is to 12 (R17)"),
        (("p4 cc",), "action 5 'p4 cc': p4 acts out of turn: p3 (seat 3) is to act"),
        (("p3 zz",), "action 5 'p3 zz': unknown action 'zz'"),
        (("p9 f",), "action 5 'p9 f': 'p9' is not a player p1-p4"),
        (("p3 cbr x",), "action 5 'p3 cbr x': 'x' is not a whole number of chips"),
        (("p3 f", "p4 f", "p1 cc", "p2 cc", "p1 sd ZzAs"), "action 9 'p1 sd ZzAs': 'Zz'"),
        (("p3 f", "p4 f", "p1 cc", "p2 cc", "p1 sd KcAs"), "p1 (draw): does not hold Kc"),
        (("p3 sm",), "action 5 'p3 sm': nothing is shown before the showdown"),
        (("p3 f", "p4 f", "p1 f", "p2 cc"), "action 8 'p2 cc': the hand is already over"),
    ],
)
def test_errors_name_hand_action_and_rule(actions: tuple[str, ...], message: str) -> None:
    with pytest.raises(HistoryError, match="hand 1, ") as info:
        replay(loads(history(*actions)))
    assert message.replace("p1 (draw)", "seat 1 (draw)") in str(info.value)


def test_fixed_limit_amount_is_exact() -> None:
    text = (
        history("p3 cbr 5")
        .replace("'P5CD'", "'F5CD'")
        .replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    )
    with pytest.raises(HistoryError, match="fixed-limit raise is to exactly 4 \\(R15\\)"):
        replay(loads(text))


def test_finishing_stacks_must_match() -> None:
    text = history("p3 f", "p4 f", "p1 f") + "finishing_stacks = [199, 201, 200, 199]\n"
    with pytest.raises(HistoryError, match=r"finishing_stacks says \[199, 201, 200, 199\]"):
        replay(loads(text))


def test_decision_point_in_the_middle() -> None:
    hand = replay(loads(history("p3 cbr 7", "p4 cc"))).hand
    point = decision_point(hand)
    assert point["to_act"] == {"player": "p1", "seat": 1}
    assert point["legal"]["call"] == 6
    assert (point["legal"]["min_to"], point["legal"]["max_to"]) == (12, 7 + 17 + 6)
    assert point["stub"] == 52 - 20
    assert point["pot"] == 1 + 2 + 7 + 7
    assert point["pots"] == []  # nothing formed before the first round ends


def test_decision_point_with_side_pots() -> None:
    text = history("p3 cbr 7", "p4 cbr 24", "p1 cc", "p2 cc").replace(
        "starting_stacks = [200, 200, 200, 200]", "starting_stacks = [200, 200, 7, 200]"
    )
    point = decision_point(replay(loads(text)).hand)
    assert point["street"] == "draw"
    assert point["pots"] == [
        {"amount": 28, "eligible": [1, 2, 3, 4]},
        {"amount": 51, "eligible": [1, 2, 4]},
    ]


def test_every_prefix_replays_to_the_same_state() -> None:
    """Cut a played hand after each action: the replay stops exactly there."""
    rng = random.Random(5)
    for _ in range(40):
        hand = random_hand(PL, rng)
        data = loads(dumps(hand))
        actions = data["actions"]
        for cut in range(len(actions) + 1):
            partial = {**data, "actions": actions[:cut]}
            partial.pop("finishing_stacks")
            again = replay(partial).hand
            if again.is_over:
                assert outcome(again)["seats"] == outcome(hand)["seats"]
            else:
                legal = again.legal_actions()
                assert legal is not None
                assert decision_point(again)["to_act"]["seat"] == legal.seat


def test_cli_replay_finished_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(9)
    hands = [random_hand(PL, rng, hand_id=f"h{i}") for i in range(3)]
    path = tmp_path / "three.phhs"
    path.write_text(dumps_all(hands))
    assert main(["replay", str(path), "--hand", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand"] == 2
    assert data["over"] is True
    assert [row["stack"] for row in data["seats"]] == [
        hands[1].result.stacks[p.seat] for p in hands[1].players
    ]
    assert data["rake"] == hands[1].result.rake
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("finished") == 3


def test_cli_replay_decision_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.phh"
    path.write_text(history("p3 cbr 7", "p4 cc"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "to act: p1 (seat 1): fold, call 6, raise to 12–30" in out
    assert "stub 32" in out


def test_cli_replay_error_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(history("p3 cbr 7", "p4 cbr 25"))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: hand 1, action 6 'p4 cbr 25': pot-limit maximum raise is to 24" in err
    assert main(["replay", str(tmp_path / "missing.phh")]) == 2
    assert main(["replay", str(path), "--hand", "2"]) == 2
    assert "there is no hand 2" in capsys.readouterr().err
    path.write_text("variant = ")
    assert main(["replay", str(path)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_cli_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(11)
    hands = [random_hand(PL, rng, hand_id=f"h{i}") for i in range(2)]
    path = tmp_path / "two.phhs"
    path.write_text(dumps_all(hands))
    assert main(["convert", str(path), "--to", "phh"]) == 0
    assert capsys.readouterr().out == path.read_text()
    out_path = tmp_path / "two.txt"
    assert main(["convert", str(path), "--to", "pokerstars", "-o", str(out_path)]) == 0
    text = out_path.read_text()
    # Numeric hand numbers, as trackers read them (the room's ids stay in the PHH).
    numbers = [pokerstars.hand_number(f"h{i}") for i in range(2)]
    assert [int(n) for n in re.findall(r"PokerStars Hand #(\d+):", text)] == [
        int(n) for n in numbers
    ]
    assert text.count("*** SUMMARY ***") == 2
    seat = hands[0].players[0].seat
    assert (
        main(["convert", str(path), "--to", "pokerstars", "--hand", "1", "--seat", str(seat)]) == 0
    )
    view = capsys.readouterr().out
    assert view.count("Dealt to") >= 1
    assert f"PokerStars Hand #{numbers[0]}:" in view


def test_cli_convert_pokerstars_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(12)
    hands = [random_hand(PL, rng, hand_id=f"h{i}") for i in range(3)]
    text = "\n\n".join(pokerstars.write(h) for h in hands)
    path = tmp_path / "three.txt"
    path.write_text(text)
    assert main(["convert", str(path), "--to", "phh", "-o", str(tmp_path / "three.phhs")]) == 0
    again = [replay(d).hand for d in loads_all((tmp_path / "three.phhs").read_text())]
    assert [h.result.stacks for h in again] == [h.result.stacks for h in hands]
    assert main(["convert", str(path), "--to", "pokerstars"]) == 2
    assert "already PokerStars text" in capsys.readouterr().err
    assert main(["replay", str(path), "--hand", "3", "--json"]) == 0  # text replays too
    data = json.loads(capsys.readouterr().out)
    assert [row["stack"] for row in data["seats"]] == [p.stack for p in hands[2].players]
