import json

import pytest

from drawpoker.cli import main


def test_eval_says_who_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Ah Kh Qh Jh Th", "2c 2d 2h 7s 7d"]) == 0
    out = capsys.readouterr().out
    assert "a Royal Flush" in out
    assert "a full house, Deuces full of Sevens" in out
    assert out.strip().endswith("Ah Kh Qh Jh Th wins")


def test_eval_json_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "AcAd9h5s3c", "As Ah 9d 5c 3d", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winners"] == [0, 1]
    assert data["verdict"].startswith("split")
    assert data["hands"][0]["category"] == "pair"


def test_eval_bad_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Ah Kh Qh Jh 1x"]) == 2
    assert "'1x' is not a card" in capsys.readouterr().err


def test_eval_wrong_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "Ah Kh"]) == 2
    assert "has 2 cards" in capsys.readouterr().err


def test_help_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--help"])
    assert exit_info.value.code == 0
    assert "strength" in capsys.readouterr().out


@pytest.mark.parametrize("preset", ["online", "italian"])
def test_demo_plays_a_hand_with_bots(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "3", "--preset", preset]) == 0
    out = capsys.readouterr().out
    assert "*** SUMMARY ***" in out
    assert out.count("Dealt to ") >= 3
    assert "deck seed " in out


def test_the_list_of_commands_needs_no_import_and_says_what_each_module_says() -> None:
    import argparse

    from drawpoker.cli import COMMANDS, build_parser

    def helps(parser: argparse.ArgumentParser) -> dict[str, str]:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return {c.dest: str(c.help) for c in action._choices_actions}

    light, full = helps(build_parser(only="")), helps(build_parser())
    assert light == full == {name: help_text for name, (_m, help_text) in COMMANDS.items()}
    assert "play" in full


def test_top_level_help_lists_play(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "play" in out
    assert "serve" in out
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "--server" in capsys.readouterr().out
