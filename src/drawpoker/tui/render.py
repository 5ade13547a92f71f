"""The table drawn as text (Rich ``Text``): cards with coloured suit symbols, or
plain ``As Kd`` for terminals without colour or Unicode (``ascii``); the seats
with stacks, bets, the button, who drew how many; the pot, the street and the
clock. Pure functions of a ``TableModel``: the screens show them, the tests read
them."""

from __future__ import annotations

import time

from rich.text import Text

from drawpoker.tui.model import TableModel

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_STYLE = {"s": "bold white", "h": "bold red", "d": "bold blue", "c": "bold green"}


_ASCII = str.maketrans({"·": "|", "–": "-", "─": "-", "…": ".", "▶": ">", "▒": "#", "⌛": "!",
                        "♠": "s", "♥": "h", "♦": "d", "♣": "c", "º": "o", "ª": "a"})  # fmt: skip


def asciify(text: Text | str) -> Text:
    """The text with every non-ASCII sign this client writes replaced one for one (the
    styles keep their places); letters of the languages are left alone."""
    out = Text(text) if isinstance(text, str) else text.copy()
    out.plain = out.plain.translate(_ASCII)
    return out


def as_text(text: Text | str) -> Text:
    """The text as it is (a string as plain text, never markup)."""
    return Text(text) if isinstance(text, str) else text


def card_text(card: str, ascii_mode: bool = False, marked: bool = False) -> Text:
    """One card: ``A♠`` in its suit's colour, or ``As`` in ASCII mode; a card marked for
    the draw is shown reversed (and between ``*`` in ASCII mode)."""
    rank, suit = card[:-1].replace("10", "T"), card[-1]
    if ascii_mode:
        return Text(f"*{rank}{suit}*" if marked else f" {rank}{suit} ")
    style = SUIT_STYLE.get(suit, "")
    if marked:
        style += " reverse"
    return Text(f" {rank}{SUITS.get(suit, suit)} ", style=style)


def cards_text(cards: list[str], ascii_mode: bool = False) -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card, ascii_mode))
    return out


def chips(n: int) -> str:
    return f"{n:,}"


def seat_lines(model: TableModel, ascii_mode: bool = False, now: float | None = None) -> Text:
    """One line a seat: turn marker, number, name, stack, bet, status, cards or count."""
    now = time.monotonic() if now is None else now
    t = model.t
    out = Text()
    hand = model.hand
    active = hand is not None and hand.active
    for n in range(1, model.max_seats + 1):
        seat = model.seats.get(n)
        line = Text()
        turn = model.to_act == n and active
        line.append(
            "▶ " if turn and not ascii_mode else "> " if turn else "  ", style="bold yellow"
        )
        button = model.button == n and (seat is not None or active)
        line.append("D " if button else "  ", style="bold black on white" if button else "")
        line.append(f"{n} ")
        if seat is None:
            line.append(t.t("table.empty"), style="dim")
            out.append_text(line)
            out.append("\n")
            continue
        name = seat.name + (f" ({t.t('seat.you')})" if n == model.you else "")
        line.append(f"{name[:16]:<16} ", style="bold" if n == model.you else "")
        line.append(f"{chips(model.stack(n)):>7}")
        entry = model.hand_seat(n) if active else None
        status: list[str] = []
        if entry is not None:
            if entry["wager"]:
                line.append(f"  [{chips(int(entry['wager']))}]", style="bold cyan")
            if entry["folded"]:
                status.append(t.t("act.folds"))
            elif entry["all_in"]:
                status.append(t.t("seat.all_in"))
            drew = entry.get("drew")
            if drew is not None:
                status.append(t.t("badge.stood_pat") if drew == 0 else t.t("badge.drew", n=drew))
        if seat.sitting_out:
            status.append(t.t("seat.sitting_out"))
        if not seat.connected:
            status.append(t.t("seat.away"))
        if seat.bot:
            status.append(t.t("seat.bot"))
        if status:
            line.append("  " + " · ".join(status), style="italic")
        if entry is not None and not entry["folded"]:
            cards = entry.get("cards")
            if cards and n != model.you:
                line.append("  ")
                line.append_text(cards_text(list(cards), ascii_mode))
            elif not cards and entry.get("card_count"):
                line.append(
                    "  " + ("#" if ascii_mode else "▒") * int(entry["card_count"]), style="dim"
                )
        if turn and model.clock is not None:
            left = model.clock.left(now)
            label = f"  {left:.0f}s" + (" ⌛" if model.clock.bank and not ascii_mode else "")
            if model.clock.bank and ascii_mode:
                label += " bank"
            line.append(label, style="bold red" if left < 5 else "bold")
        out.append_text(line)
        out.append("\n")
    return out


def info_line(model: TableModel, now: float | None = None) -> Text:
    """The pot, the street, my clock and time bank, my hand described."""
    t = model.t
    out = Text()
    hand = model.hand
    if hand is not None and hand.active:
        out.append(t.t("table.pot", n=chips(hand.pot)), style="bold")
        out.append(" · " + t.t(f"street.{hand.street}"))
    elif model.last_winners:
        out.append(" · ".join(model.last_winners), style="bold green")
    else:
        out.append(t.t("street.over"), style="dim")
    if model.clock is not None and model.you is not None and model.clock.seat == model.you:
        left = model.clock.left(now)
        key = (
            "clock.bank_you"
            if model.clock.bank
            else ("clock.draw_you" if model.clock.street == "draw" else "clock.act_you")
        )
        out.append(" · ")
        out.append(t.t(key, n=f"{left:.0f}"), style="bold red" if left < 5 else "bold yellow")
        if not model.clock.bank and model.clock.time_bank:
            out.append(" · " + t.t("clock.bank_left", n=f"{model.clock.time_bank:.0f}"))
    if model.my_hand and model.in_hand:
        out.append("\n" + t.t("table.my_hand", desc=model.my_hand))
    if model.pre_action:
        pre = model.pre_action.get("pre")
        out.append("\n" + t.t("pre.title") + ": ")
        if pre == "draw":
            n = len(model.pre_action.get("discard") or [])
            out.append(
                t.t("pre.draw_pat")
                if n == 0
                else t.t("pre.draw.one" if n == 1 else "pre.draw.other", n=n)
            )
        else:
            out.append(t.t({"check_fold": "pre.check_fold", "check": "pre.check",
                             "call_any": "pre.call_any", "fold_any": "pre.fold_any",
                             "call": "pre.call"}.get(str(pre), "pre.title"),
                           n=model.pre_action.get("amount", 0)))  # fmt: skip
    return out


def header_line(model: TableModel) -> Text:
    t = model.t
    out = Text(model.name, style="bold")
    if model.rules:
        out.append(" · " + model.rules)
    tour = model.tournament
    if isinstance(tour, dict):
        out.append(" · " + t.t("tour.table_no", n=tour.get("table_no", "?")))
        level = tour.get("level")
        if isinstance(level, dict):
            out.append(" · " + t.t("tour.level_n", n=level.get("level", "?")))
            out.append(" " + t.t("tour.blinds", sb=level.get("small_blind"),
                                 bb=level.get("big_blind")))  # fmt: skip
        if tour.get("players_left"):
            out.append(" · " + t.t("tour.players_left", n=tour["players_left"],
                                   of=tour.get("entries", "?")))  # fmt: skip
    return out
