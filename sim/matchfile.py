"""The match file: a saved match, one action per line (docs/match-file.md).

    # comments start with '#'
    game walzer
    players 4
    options 0
    deal 0 19
    play 2 37
    roll table 5

The header names the game, the player count and the option bits; every other
line is one journal action: its kind, the seat (or `table`) and its value.
"""

from dicetable.match.actions import KIND_NAMES, TABLE, action, kind_of, seat_of, value_of


class MatchFileError(ValueError):
    pass


def format_action(a):
    seat = seat_of(a)
    return "%s %s %d" % (KIND_NAMES[kind_of(a)], "table" if seat == TABLE else seat, value_of(a))


def parse_action(line):
    words = line.split()
    if len(words) != 3 or words[0] not in KIND_NAMES[1:]:
        raise ValueError("expected '<kind> <seat|table> <value>'")
    seat = TABLE if words[1] == "table" else int(words[1])
    value = int(words[2])
    if not (0 <= seat <= TABLE and 0 <= value <= 0xFFFF):
        raise ValueError("seat or value out of range")
    return action(KIND_NAMES.index(words[0]), seat, value)


def write(path, match, comments=()):
    lines = ["# dice table match file"] + ["# " + c for c in comments]
    lines += ["game %s" % match.GAME, "players %d" % match.players, "options %d" % match.options]
    lines += [format_action(a) for a in match.journal]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def read(path):
    """(game, players, options, actions); MatchFileError names the bad line."""
    header = {}
    actions = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key = line.split()[0]
            try:
                if key in ("game", "players", "options") and not actions:
                    header[key] = line.split()[1]
                else:
                    actions.append(parse_action(line))
            except (ValueError, IndexError) as e:
                raise MatchFileError("%s:%d: %s: %r" % (path, number, e, line)) from None
    missing = {"game", "players", "options"} - set(header)
    if missing:
        raise MatchFileError("%s: header lacks %s" % (path, ", ".join(sorted(missing))))
    return header["game"], int(header["players"]), int(header["options"]), actions
