"""Reading PokerStars-style 5 Card Draw text into PHH records (``convert --to phh``).

Reads what ``pokerstars.write`` writes and PokerStars' own 5 Card Draw files:
cash or tournament, any limit, one player's view or the archive. Cards nobody
saw are written ``??`` (PHH's unknown card): such a record is a faithful PHH
file that PokerKit reads, but the engine can replay only hands whose every card
is known (the archive view). What the text does not say (the rake percentage,
the rules options) is left to the presets' defaults; the rake taken is kept in
``_rake``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawpoker.events import PostKind
from drawpoker.history.info import Tournament
from drawpoker.history.phh import (
    ITALIAN_VARIANT,
    TIMEOUT_NOTE,
    VARIANTS,
    HistoryError,
    Record,
    default_posts,
)
from drawpoker.rules import Rules, Structure

_LIMITS = {
    "Limit": Structure.FIXED_LIMIT,
    "Pot Limit": Structure.POT_LIMIT,
    "No Limit": Structure.NO_LIMIT,
}
_HEADER = re.compile(
    r"PokerStars (?:Hand|Game) #(?P<id>[^:]+):\s+"
    r"(?:Tournament #(?P<tid>[^,\s]+), (?P<buyin>[^+\s]*)\+(?P<fee>\S*)(?: (?P<iso>[A-Z]{3}))?\s+)?"
    r"5 Card Draw (?P<game>Italian Pot Limit|Pot Limit|No Limit|Limit)"
    r"(?: - Level (?P<level>[IVXLCDM]+))? \((?P<stakes>[^)]*)\)(?: - (?P<when>.*))?$"
)
_TABLE = re.compile(r"Table '(?P<name>[^']*)' (?P<max>\d+)-max Seat #(?P<button>\d+) is the button")
_SEAT = re.compile(
    r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>\S+) in chips\)(?P<out> is sitting out)?$"
)
_POST = re.compile(
    r"(?P<name>.+): posts (?P<what>small blind|big blind|the ante|the invito|dead small blind"
    r"|small & big blinds) (?P<amount>\S+)(?P<all_in> and is all-in)?$"
)
_DEALT = re.compile(r"Dealt to (?P<name>.+?) \[(?P<a>[^\]]*)\](?: \[(?P<b>[^\]]*)\])?$")
_ACT = re.compile(
    r"(?P<name>.+): (?P<verb>folds|checks|calls|bets|raises|discards|stands pat|shows|mucks hand)"
    r"(?: (?P<rest>.*))?$"
)
_REQUEST = re.compile(r"(?P<name>.+): (?P<verb>asks|does not ask) to see the openers$")
_PENALTY = re.compile(
    r"(?P<name>.+): pays a penalty of (?P<paid>\S+) for false openers(?: \((?P<due>\S+) due\))?$"
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _roman(text: str) -> int:
    total = 0
    for a, b in zip(text, [*text[1:], ""], strict=True):
        value = _ROMAN[a]
        total += -value if b and _ROMAN[b] > value else value
    return total


@dataclass
class _Hand:
    lines: list[str]
    symbol: str = ""
    names: list[str] = field(default_factory=list)  # p1..pN
    seats: list[int] = field(default_factory=list)
    stacks: list[int] = field(default_factory=list)


def _chips(text: str, symbol: str) -> int:
    raw = text.removeprefix(symbol).replace(",", "")
    if not raw.isdigit():
        raise HistoryError(f"{text!r} is not a whole number of chips")
    return int(raw)


def split_hands(text: str) -> list[list[str]]:
    """The hands of a text file: each starts at a ``PokerStars Hand #`` line."""
    hands: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(("PokerStars Hand #", "PokerStars Game #")):
            hands.append([])
        if hands and line:
            hands[-1].append(line)
    return hands


def is_pokerstars(text: str) -> bool:
    return text.lstrip().startswith(("PokerStars Hand #", "PokerStars Game #"))


def read_all(text: str) -> list[Record]:
    return [read(lines, number) for number, lines in enumerate(split_hands(text), 1)]


def read(lines: list[str], number: int = 1) -> Record:
    """One hand's lines as a PHH record."""
    try:
        return _read(lines)
    except (HistoryError, ValueError, KeyError, IndexError) as error:
        raise HistoryError(f"hand {number}: {error}") from None


def _read(lines: list[str]) -> Record:
    head = _HEADER.match(lines[0])
    table = _TABLE.match(lines[1]) if len(lines) > 1 else None
    if head is None or table is None:
        raise HistoryError("not a PokerStars 5 Card Draw header")
    game = head["game"]
    italian = game.startswith("Italian")
    structure = Structure.POT_LIMIT if italian else _LIMITS[game]
    stakes = head["stakes"]
    symbol = "$" if "$" in stakes else ("€" if "€" in stakes else "")
    button = int(table["button"])
    max_seats = int(table["max"])
    seated: list[tuple[int, str, int]] = []
    i = 2
    while i < len(lines) and (m := _SEAT.match(lines[i])):
        if not m["out"]:
            seated.append((int(m["seat"]), m["name"], _chips(m["stack"], symbol)))
        i += 1
    seated.sort(key=lambda row: (row[0] - button - 1) % max_seats)
    seats = [row[0] for row in seated]
    names = [row[1] for row in seated]
    label = {name: f"p{k}" for k, name in enumerate(names, 1)}
    index = {name: k for k, name in enumerate(names)}
    n = len(seated)
    antes = [0] * n
    blinds = [0] * n
    small_blind = big_blind = 0
    actions: list[str] = []
    hole: dict[str, list[str]] = {}
    sds: list[str] = []
    dhs: list[str] = []
    in_draw = False
    note = ""
    rake = 0
    carried_in = 0
    shown: set[str] = set()
    mucked_cards: dict[str, str] = {}
    summary = False
    posted: list[tuple[int, PostKind, int]] = []  # live blinds and dead small blinds
    ante = 0
    others_posted: list[tuple[int, bool]] = []  # Italian: non-dealers' invitos, all in?
    requests = False  # R48: someone was asked for the openers
    openers_shown = False
    penalty: tuple[int, int] | None = None  # (paid, due)
    opener = ""  # Italian: the first bet before the draw is the opening
    opener_folded = False
    checked_after_draw = bet_after_draw = collected = False
    drawn = False
    total_pot = 0
    for line in lines[i:]:
        if line == "*** SUMMARY ***":
            summary = True
            continue
        if summary:
            if line.startswith("Total pot"):
                m = re.search(r"Rake (\S+)", line)
                rake = _chips(m.group(1), symbol) if m else 0
                total_pot = _chips(line.split()[2], symbol)
            elif m := re.match(r"Seat \d+: (.+?)(?: \(.*?\))* mucked \[([^\]]*)\]", line):
                mucked_cards[m.group(1)] = m.group(2)
            continue
        if m := _POST.match(line):
            k = index[m["name"]]
            amount = _chips(m["amount"], symbol)
            what = m["what"]
            seat = seats[k]
            if what == "small blind" and big_blind:
                # After the big blind: a missed small blind posted on return, dead (R9).
                antes[k] += amount
                posted.append((seat, PostKind.DEAD_SMALL_BLIND, amount))
            elif what == "small blind":
                blinds[k] += amount
                small_blind = small_blind or amount
                posted.append((seat, PostKind.SMALL_BLIND, amount))
            elif what == "big blind":
                blinds[k] += amount
                big_blind = max(big_blind, amount)
                posted.append((seat, PostKind.BIG_BLIND, amount))
            elif what == "small & big blinds":
                live = big_blind or amount
                blinds[k] += live
                antes[k] += amount - live
                posted.append((seat, PostKind.BIG_BLIND, live))
                if amount > live:
                    posted.append((seat, PostKind.DEAD_SMALL_BLIND, amount - live))
            elif what == "dead small blind":
                antes[k] += amount
                posted.append((seat, PostKind.DEAD_SMALL_BLIND, amount))
            else:  # the ante, the invito
                antes[k] += amount
                ante = max(ante, amount)
                if what == "the invito" and seats[k] != button:
                    others_posted.append((amount, bool(m["all_in"])))
            continue
        if m := re.match(r"(\S+) carried over from the previous hand$", line):
            carried_in = _chips(m.group(1), symbol)
            continue
        if m := _DEALT.match(line):
            name = m["name"]
            if m["b"] is None and not in_draw and name not in hole:
                hole[name] = m["a"].split()
                actions.append(f"d dh {label[name]} {''.join(hole[name])}")
            else:
                new = (m["b"] if m["b"] is not None else m["a"]).split()
                dhs.append(f"d dh {label[name]} {''.join(new)}")
            continue
        if line.endswith(" has timed out"):
            note = f" # {TIMEOUT_NOTE}"
            continue
        if (m := _REQUEST.match(line)) and m["name"] in label:
            requests = True
            verb = "ask" if m["verb"] == "asks" else "decline"
            actions.append(f"{label[m['name']]} {verb}{note if verb == 'decline' else ''}")
            note = ""
            continue
        if m := _PENALTY.match(line):
            paid = _chips(m["paid"], symbol)
            penalty = (paid, _chips(m["due"], symbol) if m["due"] else paid)
            continue
        if " shows openers [" in line:
            openers_shown = True
            continue
        m = _ACT.match(line)
        if m is None or m["name"] not in label:
            collected = collected or " collected " in line
            continue  # collected, uncalled bet, reshuffle notes, "doesn't show hand" ...
        who = label[m["name"]]
        verb = m["verb"]
        rest = m["rest"] or ""
        if verb in ("discards", "stands pat"):
            in_draw = drawn = True
            if verb == "stands pat":
                sds.append(f"{who} sd{note}")
            else:
                count = int(rest.split()[0])
                cards = re.search(r"\[([^\]]*)\]", rest)
                thrown = "".join(cards.group(1).split()) if cards else "??" * count
                sds.append(f"{who} sd {thrown}")
                if not cards:
                    dhs.append(f"d dh {who} {'??' * count}")
            note = ""
            continue
        if in_draw:
            actions += _merge_deals(sds, dhs)
            sds, dhs = [], []
            in_draw = False
        if verb == "folds":
            opener_folded = opener_folded or m["name"] == opener
            actions.append(f"{who} f{note}")
        elif verb in ("checks", "calls"):
            checked_after_draw = checked_after_draw or (drawn and verb == "checks")
            actions.append(f"{who} cc{note}")
        elif verb == "bets":
            bet_after_draw = bet_after_draw or drawn
            if not drawn and not opener:
                opener = m["name"]
            actions.append(f"{who} cbr {_chips(rest.split()[0], symbol)}")
        elif verb == "raises":
            actions.append(f"{who} cbr {_chips(rest.split(' to ')[1].split()[0], symbol)}")
        elif verb == "shows":
            cards = re.match(r"\[([^\]]*)\]", rest)
            if cards:
                shown.add(m["name"])
                actions.append(f"{who} sm {''.join(cards.group(1).split())}")
        elif verb == "mucks hand":
            known = mucked_cards.get(m["name"], "")
            actions.append(f"{who} sm" + (f" {''.join(known.split())}" if known else ""))
        note = ""
    if in_draw:
        actions += _merge_deals(sds, dhs)
    # A muck whose cards the summary reveals (PokerStars' own files) shows them.
    for k, action in enumerate(actions):
        words = action.split()
        if words[1:] == ["sm"]:
            name = names[int(words[0][1:]) - 1]
            if name in mucked_cards:
                actions[k] = f"{words[0]} sm {''.join(mucked_cards[name].split())}"
    for name in names:  # players nobody saw: five unknown cards
        if name not in hole:
            actions.insert(names.index(name), f"d dh {label[name]} {'??' * 5}")
    if n == 2:
        antes.reverse()
        blinds.reverse()
    low, high = (
        (int(x) for x in re.findall(r"\d+", stakes.replace(",", ""))[:2]) if not italian else (0, 0)
    )
    if italian:
        invito = int(re.findall(r"\d+", stakes)[0])
        # What the others post (R37): a post that put a player all in says only "at
        # least this much"; any of the rules that fit pays the same chips.
        exact = {amount for amount, short in others_posted if not short}
        least = max((amount for amount, short in others_posted if short), default=0)
        amounts = {"none": 0, "half": invito // 2, "one_less": invito - 1, "same": invito}
        fits = [name for name, amount in amounts.items()
                if (amount in exact if exact else amount >= least) and len(exact) <= 1]  # fmt: skip
        others_rule = min(fits, key=lambda name: amounts[name]) if fits else "none"
        # The text says how openers were checked: requests (R48); the openers shown
        # (R44, showdown); none shown though the opener stayed in (server). An opener
        # who folded leaves it open: showdown mode lets anyone open, as any mode might.
        if requests:
            check = "on_request"
        elif openers_shown or (opener and opener_folded):
            check = "showdown"
        else:
            check = "server"
        fine: int | str = "pot"
        if penalty is not None and penalty[1] != total_pot:
            fine = penalty[1]  # a fixed penalty: the pot at the end was another size
        # R43: a second round checked through to a pot won says the pot did not stay.
        stays = not (checked_after_draw and not bet_after_draw and collected)
        rules = Rules.italian(
            max_seats=max_seats, invito=invito, invito_others=others_rule,
            openers_check=check, false_opener_penalty=fine, checked_pot_stays=stays,
        )  # fmt: skip
        bets: tuple[int, ...] = (invito,)
    elif structure is Structure.FIXED_LIMIT:
        rules = Rules.online(structure=structure, max_seats=max_seats, small_bet=low,
                             big_bet=high, small_blind=small_blind or low // 2,
                             big_blind=big_blind or low)  # fmt: skip
        bets = (low, high)
    else:
        rules = Rules.online(structure=structure, max_seats=max_seats, small_blind=low,
                             big_blind=high)  # fmt: skip
        bets = (high,)
    if any(a.endswith(" sm") for a in actions):
        rules = rules.replace(reveal="winners")
    rules = rules.replace(antes=ante) if not italian and ante else rules
    explicit = None
    if not italian:
        order = list(range(n))
        kinds = [(k, kind) for k, kind in default_posts(rules, order, n - 1) if kind not in
                 (PostKind.ANTE, PostKind.INVITO)]  # fmt: skip
        if [(seats.index(seat), kind) for seat, kind, _ in posted] != kinds:
            explicit = posted  # the room chose the posts (dead button, returning players)
    tour = None
    if head["tid"]:
        level = _roman(head["level"]) if head["level"] else 1
        tour = Tournament(id=head["tid"], buy_in=head["buyin"], fee=head["fee"], level=level)
    return Record(
        variant=ITALIAN_VARIANT if italian else VARIANTS[structure],
        antes=antes,
        blinds_or_straddles=blinds,
        bets=bets,
        starting_stacks=[row[2] for row in seated],
        actions=actions,
        hand=head["id"],
        table=table["name"].removeprefix(f"{head['tid']} ") if head["tid"] else table["name"],
        seats=seats,
        seat_count=max_seats,
        players=names,
        currency_symbol=symbol,
        button=button,
        rules=rules,
        carried_in=carried_in,
        currency=head["iso"] or (iso[0] if (iso := re.findall(r" ([A-Z]{3})$", stakes)) else ""),
        posts=explicit,
        rake=rake,
        time_text=head["when"] or "",
        tournament=tour,
    )


def _merge_deals(sds: list[str], dhs: list[str]) -> list[str]:
    """A draw as PHH wants it: every discard, then the deals, one line per player."""
    dealt: dict[str, str] = {}
    for line in dhs:
        _, _, who, cards = line.split()
        dealt[who] = dealt.get(who, "") + cards
    return [*sds, *(f"d dh {who} {cards}" for who, cards in dealt.items())]
