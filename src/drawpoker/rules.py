"""The rules configuration: every option of RULES.md as a frozen, keyword-only field.

Two presets: ``Rules.online()`` (R1-R36, blinds) and ``Rules.italian()``
(R37-R46: invito, Jacks to open, pot-limited opening, pot carried over). A table's
rules are fixed when it is created; an impossible configuration raises
``InvalidConfig`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from drawpoker.cards import RANK_CHARS
from drawpoker.errors import InvalidConfig


class Preset(StrEnum):
    ONLINE = "online"
    ITALIAN = "italian"


class Structure(StrEnum):
    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


class Reveal(StrEnum):
    ALL = "all"
    WINNERS = "winners"


class InvitoOthers(StrEnum):
    """What the players other than the dealer post with the invito (R37)."""

    NONE = "none"
    HALF = "half"
    ONE_LESS = "one_less"
    SAME = "same"


class OpenersCheck(StrEnum):
    """R44: the server checks openers before offering the open, or at the showdown;
    R48: anyone may open, and the openers are shown only if a player asks."""

    SERVER = "server"
    SHOWDOWN = "showdown"
    ON_REQUEST = "on_request"


POT_PENALTY = "pot"  # R48: the false opener's penalty is the size of the pot


# Default rake caps by players dealt in: (fewest players, cap), checked from the top.
DEFAULT_RAKE_CAPS: tuple[tuple[int, int], ...] = ((2, 1), (3, 2), (5, 3))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """How one table plays. Amounts are ints in the table's smallest chip unit."""

    preset: Preset = Preset.ONLINE
    structure: Structure = Structure.NO_LIMIT
    max_seats: int = 6  # R2
    small_blind: int = 1  # R5
    big_blind: int = 2
    small_bet: int = 0  # R15, fixed limit; 0 = the big blind
    big_bet: int = 0  # R15, fixed limit; 0 = twice the small bet
    antes: int = 0  # R9
    fl_max_raises: int = 3  # R15: one bet plus this many raises per round
    fl_cap_lifted_heads_up: bool = True  # R15: cash tables yes, tournaments no
    burn_cards: bool = False  # R1
    max_discard: int = 5  # R23
    max_consecutive_draw: int = 5  # R23, R42
    reshuffle_folded: bool = False  # R24
    protect_last_card: bool = False  # R24
    draw_time_s: int = 30  # R26
    draw_timeout_penalty: bool = True  # R26
    reveal: Reveal = Reveal.ALL  # R31
    rake_percent: Fraction = Fraction(0)  # R36
    rake_caps: tuple[tuple[int, int], ...] = DEFAULT_RAKE_CAPS  # R36
    # Preset italian (R37-R45)
    invito: int = 0
    invito_others: InvitoOthers = InvitoOthers.NONE
    openers: str = "JJ"
    raise_pot_multiple: int = 2
    checked_pot_stays: bool = True
    openers_check: OpenersCheck = OpenersCheck.SERVER
    false_opener_penalty: int | str = POT_PENALTY  # R48: "pot" or a fixed amount
    # Derived in __post_init__ (read on hot paths, so plain attributes).
    openers_rank: int = field(init=False, default=9, compare=False, repr=False)
    is_italian: bool = field(init=False, default=False, compare=False, repr=False)
    is_fixed_limit: bool = field(init=False, default=False, compare=False, repr=False)
    is_pot_limit: bool = field(init=False, default=False, compare=False, repr=False)
    bet_sizes: tuple[int, int] = field(init=False, default=(0, 0), compare=False, repr=False)
    """Fixed limit: (small bet, big bet)."""
    min_bet: int = field(init=False, default=0, compare=False, repr=False)
    """The smallest opening bet of a round in pot and no limit (R17, R39)."""

    def __post_init__(self) -> None:
        _coerce_enums(self)
        derived = {
            "is_italian": self.preset is Preset.ITALIAN,
            "is_fixed_limit": self.structure is Structure.FIXED_LIMIT,
            "is_pot_limit": self.structure is Structure.POT_LIMIT,
            "bet_sizes": (
                self.small_bet or self.big_blind,
                self.big_bet or 2 * (self.small_bet or self.big_blind),
            ),
            "min_bet": self.invito if self.preset is Preset.ITALIAN else self.big_blind,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)
        self._validate()

    @classmethod
    def online(cls, **overrides: Any) -> Rules:
        """The room's standard game (R1-R36)."""
        return cls(**{"preset": Preset.ONLINE, **overrides})

    @classmethod
    def italian(cls, **overrides: Any) -> Rules:
        """Traditional Italian draw poker (R37-R46)."""
        defaults: dict[str, Any] = {
            "preset": Preset.ITALIAN,
            "structure": Structure.POT_LIMIT,
            "small_blind": 0,
            "big_blind": 0,
            "invito": 10,
            "max_consecutive_draw": 3,
        }
        return cls(**{**defaults, **overrides})

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    def rake_cap(self, players_dealt: int) -> int | None:
        """R36: the cap for a hand with this many players dealt in (None: no cap)."""
        cap = None
        for fewest, amount in self.rake_caps:
            if players_dealt >= fewest:
                cap = amount
        return cap

    def invito_for_others(self) -> int:
        """R37: what each non-dealer posts."""
        return {
            InvitoOthers.NONE: 0,
            InvitoOthers.HALF: self.invito // 2,
            InvitoOthers.ONE_LESS: self.invito - 1,
            InvitoOthers.SAME: self.invito,
        }[self.invito_others]

    def penalty_due(self, pot: int) -> int:
        """R48: what a false opener owes when the pot at the end of the hand is ``pot``
        (before the cap of the opener's stack)."""
        penalty = self.false_opener_penalty
        return pot if penalty == POT_PENALTY else int(penalty)

    def summary(self) -> str:
        """One line for a lobby: ``No Limit 1/2, online, 6-max``."""
        if self.is_italian:
            return f"Italian, invito {self.invito}, {self.max_seats}-max"
        if self.is_fixed_limit:
            small, big = self.bet_sizes
            stakes = f"{small}/{big}"
        else:
            stakes = f"{self.small_blind}/{self.big_blind}"
        name = {"fixed-limit": "Limit", "pot-limit": "Pot Limit", "no-limit": "No Limit"}
        return f"{name[self.structure]} {stakes}, {self.max_seats}-max"

    def _validate(self) -> None:
        def fail(name: str, message: str) -> None:
            raise InvalidConfig(f"{name}: {message}")

        for name in ("max_seats", "small_blind", "big_blind", "small_bet", "big_bet", "antes",
                     "fl_max_raises", "max_discard", "max_consecutive_draw", "draw_time_s",
                     "invito", "raise_pot_multiple"):  # fmt: skip
            value = getattr(self, name)
            if type(value) is not int:
                fail(name, f"must be an integer, not {value!r}")
            if value < 0:
                fail(name, f"must not be negative, got {value}")
        if not 2 <= self.max_seats <= 8:
            fail("max_seats", f"must be 2 to 8, got {self.max_seats}")
        if not 1 <= self.max_discard <= 5:
            fail("max_discard", f"must be 1 to 5, got {self.max_discard}")
        if not 1 <= self.max_consecutive_draw <= 5:
            fail("max_consecutive_draw", f"must be 1 to 5, got {self.max_consecutive_draw}")
        if self.draw_time_s < 1:
            fail("draw_time_s", "must be at least 1 second")
        if not 0 <= self.rake_percent <= 100:
            fail("rake_percent", f"must be 0 to 100, got {self.rake_percent}")
        for i, cap in enumerate(self.rake_caps):
            if len(cap) != 2 or any(type(x) is not int or x < 0 for x in cap):
                fail("rake_caps", f"entry {i} must be (fewest players, cap), got {cap!r}")
        if self.openers_rank < 0:
            fail("openers", f"must be a pair like 'JJ', got {self.openers!r}")
        if self.is_italian:
            if self.small_blind or self.big_blind:
                fail("small_blind", "the italian preset has no blinds (R37): use invito")
            if self.invito < 1:
                fail("invito", "the italian preset needs an invito of at least 1")
            if self.structure is not Structure.POT_LIMIT:
                fail("structure", "the italian preset bets pot-limited (R39): use pot-limit")
            if self.raise_pot_multiple < 1:
                fail("raise_pot_multiple", "must be at least 1")
            penalty = self.false_opener_penalty
            if penalty != POT_PENALTY and (type(penalty) is not int or penalty < 1):
                fail("false_opener_penalty", f"must be 'pot' or a whole number of chips "
                     f"of at least 1, got {penalty!r}")  # fmt: skip
            return
        if self.invito:
            fail("invito", "only the italian preset has an invito")
        if self.small_blind > self.big_blind:
            fail("small_blind", f"{self.small_blind} is above the big blind {self.big_blind}")
        if self.big_blind < 1 and self.antes < 1:
            fail("big_blind", "a game needs a big blind or antes")
        if self.is_fixed_limit:
            small, big = self.bet_sizes
            if small < 1:
                fail("small_bet", "fixed limit needs bet sizes (small_bet or big_blind)")
            if big < small:
                fail("big_bet", f"{big} is below the small bet {small}")
        elif self.big_blind < 1:
            fail("big_blind", f"{self.structure} needs a big blind (the minimum bet, R17)")


_ENUM_FIELDS = {
    "preset": Preset,
    "structure": Structure,
    "reveal": Reveal,
    "invito_others": InvitoOthers,
    "openers_check": OpenersCheck,
}


def _coerce_enums(rules: Rules) -> None:
    """Accept plain strings for enum fields, numbers for the rake, a pair for openers."""
    for name, enum in _ENUM_FIELDS.items():
        value = getattr(rules, name)
        try:
            object.__setattr__(rules, name, enum(value))
        except ValueError:
            choices = ", ".join(m.value for m in enum)
            raise InvalidConfig(f"{name}: {value!r} is not one of {choices}") from None
    try:
        object.__setattr__(rules, "rake_percent", Fraction(rules.rake_percent))
    except (TypeError, ValueError):
        raise InvalidConfig(f"rake_percent: {rules.rake_percent!r} is not a number") from None
    object.__setattr__(rules, "rake_caps", tuple(tuple(cap) for cap in rules.rake_caps))
    text = rules.openers.upper().replace("10", "T") if isinstance(rules.openers, str) else ""
    rank = RANK_CHARS.find(text[0]) if len(text) == 2 and text[0] == text[1] else -1
    object.__setattr__(rules, "openers_rank", rank)
