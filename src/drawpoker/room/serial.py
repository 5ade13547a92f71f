"""Plain-data forms of room configuration (for persistence and the wire)."""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from fractions import Fraction
from typing import Any

from drawpoker.rules import Rules


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every init field of ``Rules`` as JSON-ready data (the rake as ``"num/den"``)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        if not f.init:
            continue
        value = getattr(rules, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, Fraction):
            value = str(value)
        elif f.name == "rake_caps":
            value = [list(cap) for cap in value]
        out[f.name] = value
    return out


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules(**{**data, "rake_caps": tuple(tuple(cap) for cap in data["rake_caps"])})
