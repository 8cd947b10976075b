"""The match file: a saved match, one action per line (docs/match-file.md).

    # comments start with '#'
    game walzer
    players 4
    options 0
    deal 0 19
    play 2 37
    roll table 5

The header names the game, the player count and the option bits, and for a
Dicefull match played with a challenge set from a file, that set's word
(`challenges 1a2b3`: without it, the built-in set); every other line is one
journal action: its kind, the seat (or `table`) and its value.

read() is the one reader of match files (python -m sim --replay and
python -m host_tools replay both use it).  It is tolerant of what does not
change the meaning (a UTF-8 byte-order mark, CRLF or CR line ends, spaces or
tabs between words, blank lines, comments, a comment after an action) and
refuses everything else with the first problem's place and what would be
right: MatchFileError, 'path:line:column: what is wrong (what would be
right)'.  A read returns the whole match or raises; nothing is half-read.
The header is checked by the match engine's own header_refusal(), so a
file is refused for exactly what the table would refuse.

write() never leaves half a file: it writes a temporary file beside the
target and renames it, and it does not replace an existing file unless
asked to.
"""

import os
import re
import tempfile
from typing import NamedTuple

from dicetable.games import GAMES, header_refusal
from dicetable.match.actions import KIND_NAMES, TABLE, action, kind_of, seat_of, value_of
from dicetable.match.engine import malformed
from sim.hostfile import special

HEADER = ("game", "players", "options")
SET_KEY = "challenges"  # the header's one optional line: Dicefull's set from a file
SET_GAME = "dicefull"
_SET_RIGHT = "the challenge set's word, 1 to fffff in hex as the transcript names it, e.g. %s 1a2b3"
LARGEST = 1 << 20  # bytes; the longest match the board can hold is ~200 KB as text
_MAX_VALUE = 0xFFFF
_NUMBER = re.compile(r"[0-9]+")  # ASCII digits only: int() would take '٣' and '３' too
_WORD = re.compile(r"[^ \t]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # not \t, \n (\r is a line end)
_JOURNAL_HINT = "is this a journal.bin? use python -m host_tools replay"
_HEX = re.compile(r"[0-9a-fA-F]+")
_HEADER_NUMBERS = {
    "players": "players is a whole number, e.g. players 4",
    "options": "options is a whole number of option bits, e.g. options 0",
}
_ACTION_FORM = "an action is <kind> <seat|table> <value>, e.g. deal 0 19"


class MatchFileError(ValueError):
    """The first problem of a match file, as 'path:line:column: message';
    `line` and `column` are 1-based, 0 when the problem is the whole file."""

    def __init__(self, path, line, column, message):
        self.path, self.line, self.column, self.message = path, line, column, message
        where = "%s:%d:%d: " % (path, line, column) if line else "%s: " % path
        super().__init__(where + message)


class MatchFile(NamedTuple):
    """A match file read whole: `lines[i]` is the line number of actions[i]."""

    game: str
    players: int
    options: int
    actions: list
    lines: list
    challenges: int = 0  # the set's word; 0: the built-in set


def format_action(a):
    seat = seat_of(a)
    return "%s %s %d" % (KIND_NAMES[kind_of(a)], "table" if seat == TABLE else seat, value_of(a))


def format_file(game, players, options, actions, comments=(), challenges=0):
    """A match file's text; `challenges` the word of the set a file gave the
    match (0, the built-in set, writes no line: files from before sets read
    the same)."""
    lines = ["# dice table match file"] + ["# " + c for c in comments]
    lines += ["game %s" % game, "players %d" % players, "options %d" % options]
    if challenges:
        lines.append("%s %05x" % (SET_KEY, challenges))
    lines += [format_action(a) for a in actions]
    return "\n".join(lines) + "\n"


def text_of(match, comments=()):
    """The match file of `match` (an engine Match), as text."""
    return format_file(
        match.GAME,
        match.players,
        match.options,
        match.journal,
        comments,
        getattr(match, "set_word", 0),  # Dicefull's alone
    )


def write(path, match, comments=(), replace=False):
    """Save `match` to `path` through a temporary file renamed into place, so an
    interruption leaves the old file or none, never half of one.  An existing
    `path` raises FileExistsError unless `replace`."""
    data = text_of(match, comments).encode("utf-8")
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # as open() would have made it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # refuses an existing path, even one made just now
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                if os.path.lexists(path):
                    raise FileExistsError(17, "File exists", path) from None
                os.replace(tmp, path)
                return
            os.unlink(tmp)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _shown(word, width=24):
    """A word as a message quotes it: escaped, and cut if long."""
    return repr(word if len(word) <= width else word[:width] + "...")


def _decode(data, path):
    """The text of a match file's bytes, or MatchFileError saying what they are."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte-order mark, as some editors write
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise MatchFileError(path, 1, 1, "UTF-16 text (save the file as UTF-8)")
    if b"\x00" in data:
        half = len(data) // 4
        if len(data) > 1 and (data[1::2].count(0) > half or data[0::2].count(0) > half):
            raise MatchFileError(path, 1, 1, "UTF-16 text (save the file as UTF-8)")
        at = data.index(b"\x00")
        start = data.rfind(b"\n", 0, at) + 1
        raise MatchFileError(
            path,
            data.count(b"\n", 0, at) + 1,
            len(data[start:at].decode("utf-8", "replace")) + 1,
            "binary data (byte 0x00): %s" % _JOURNAL_HINT,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[start : e.start].decode("utf-8")) + 1
        text_like = not _CONTROL.search(data.decode("latin-1").replace("\r", "")[:4096])
        hint = "another encoding? save the file as UTF-8" if text_like else _JOURNAL_HINT
        raise MatchFileError(
            path, line, column, "not UTF-8 text (byte 0x%02x): %s" % (data[e.start], hint)
        ) from None
    return text


def _number(word, path, line, column, what):
    if not _NUMBER.fullmatch(word):
        raise MatchFileError(path, line, column, "%s is not a number (%s)" % (_shown(word), what))
    if len(word) > 9:
        raise MatchFileError(path, line, column, "%s is too large (%s)" % (_shown(word), what))
    return int(word)


def parse(data, path="<match file>"):
    """MatchFile from the bytes of a match file; MatchFileError at the first problem."""
    if len(data) > LARGEST:
        raise MatchFileError(
            path, 0, 0, "%d bytes is larger than any match file (at most %d)" % (len(data), LARGEST)
        )
    text = _decode(data, path)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header = {}  # key -> (value word, line, column of the value, column of the key)
    checked = None  # (game, players, options, challenges) once the header is whole
    actions = []
    numbers = []
    for number, line in enumerate(lines, 1):
        words = _words(line, path, number)
        if not words:
            continue
        key, column = words[0]
        if key in HEADER or key == SET_KEY:
            if actions:
                message = "%s %r line after the actions (the header comes before them)"
                raise MatchFileError(
                    path, number, column, message % ("an" if key == "options" else "a", key)
                )
            if _header_line(words, header, path, number):
                checked = _header(header, path, number, column, "")
            continue
        if key not in KIND_NAMES[1:]:
            _not_a_word(key, header, path, number, column)
        if checked is None:
            checked = _header(header, path, number, column, "the first action")
        actions.append(_action_line(words, checked[1], path, number))
        numbers.append(number)
    if checked is None:
        last = len(lines) - 1 if len(lines) > 1 and not lines[-1] else len(lines)
        checked = _header(header, path, last, len(lines[last - 1]) + 1, "the end")
    game, players, options, challenges = checked
    return MatchFile(game, players, options, actions, numbers, challenges)


def _words(line, path, number):
    """The words of a line, [(word, column)], up to a comment; a control
    character is refused."""
    bad = _CONTROL.search(line)
    if bad:
        message = "a control character U+%04X (a match file is plain text)"
        raise MatchFileError(path, number, bad.start() + 1, message % ord(bad.group()))
    words = [(m.group(), m.start() + 1) for m in _WORD.finditer(line)]
    for i, (word, _) in enumerate(words):
        if word.startswith("#"):
            return words[:i]
    return words


def _header_line(words, header, path, number):
    """Take a header line into `header`; True once the header is whole."""
    key, column = words[0]
    if key in header:
        raise MatchFileError(
            path,
            number,
            column,
            ("a second %r line (line %d gave it; the header names each once)")
            % (key, header[key][1]),
        )
    if len(words) < 2:
        raise MatchFileError(
            path,
            number,
            column + len(key),
            ("%r needs a value (e.g. %s)")
            % (
                key,
                {
                    "game": "game walzer",
                    "players": "players 4",
                    "options": "options 0",
                    SET_KEY: SET_KEY + " 1a2b3",
                }[key],
            ),
        )
    if len(words) > 2:
        raise MatchFileError(
            path,
            number,
            words[2][1],
            ("an extra word %s (a header line is %r and one value)") % (_shown(words[2][0]), key),
        )
    header[key] = (words[1][0], number, words[1][1], column)
    _check_value(key, header, path)
    return all(k in header for k in HEADER)


def _not_a_word(key, header, path, number, column):
    """Refuse a line that starts with neither a header word nor an action."""
    if key.lower() in HEADER + (SET_KEY,) + KIND_NAMES[1:]:
        right = "words are lower case: %r" % key.lower()
    elif not all(k in header for k in HEADER):
        right = "the header lines are game, players and options; the actions are " + ", ".join(
            KIND_NAMES[1:]
        )
    else:
        right = "the actions are " + ", ".join(KIND_NAMES[1:])
    raise MatchFileError(
        path,
        number,
        column,
        "%s is %s (%s)"
        % (
            _shown(key),
            "not an action"
            if all(k in header for k in HEADER)
            else "neither a header line nor an action",
            right,
        ),
    )


def _action_line(words, players, path, number):
    """The action of an action line: kind, seat and value, each checked."""
    key, column = words[0]
    kind = KIND_NAMES.index(key)
    if len(words) < 3:
        end = words[-1][1] + len(words[-1][0])
        raise MatchFileError(
            path,
            number,
            end,
            "%r needs %s (%s)"
            % (key, "a seat and a value" if len(words) == 1 else "a value", _ACTION_FORM),
        )
    seat_word, seat_column = words[1]
    seats = "seats are 0 to %d, or table" % (players - 1)
    if seat_word == "table":
        seat = TABLE
    else:
        seat = _number(seat_word, path, number, seat_column, seats)
        if seat >= players:
            message = "no seat %d in a %d-player match (%s)"
            raise MatchFileError(path, number, seat_column, message % (seat, players, seats))
    value_word, value_column = words[2]
    values = "values are 0 to %d" % _MAX_VALUE
    value = _number(value_word, path, number, value_column, values)
    if value > _MAX_VALUE:
        raise MatchFileError(
            path, number, value_column, "value %d is too large (%s)" % (value, values)
        )
    if len(words) > 3:
        raise MatchFileError(
            path,
            number,
            words[3][1],
            ("an extra word %s (%s; a comment starts with #)")
            % (_shown(words[3][0]), _ACTION_FORM),
        )
    a = action(kind, seat, value)
    if malformed(a):  # the checks above leave no bit without a meaning
        raise MatchFileError(path, number, column, "a malformed action (%s)" % _ACTION_FORM)
    return a


def _check_value(key, header, path):
    """Refuse a header line's value as soon as it is read, as far as it can be alone."""
    word, line, column = header[key][:3]
    if key == "game":
        if word not in GAMES:
            raise MatchFileError(path, line, column, str(header_refusal(word, 0, 0)))
    elif key == SET_KEY:
        _set_word(word, path, line, column)
    else:
        _number(word, path, line, column, _HEADER_NUMBERS[key])
    if SET_KEY in header and "game" in header and header["game"][0] != SET_GAME:
        # at the challenges line, whichever of the two came first
        _, line, _, column = header[SET_KEY]
        message = "a %r line in a %s match file (only %s plays a challenge set)"
        raise MatchFileError(path, line, column, message % (SET_KEY, header["game"][0], SET_GAME))


def _set_word(word, path, line, column):
    """The word of a `challenges` line's value: hex, 1 to 0xFFFFF."""
    right = _SET_RIGHT % SET_KEY
    if not _HEX.fullmatch(word):
        raise MatchFileError(path, line, column, "%s is not a number (%s)" % (_shown(word), right))
    digits = word.lstrip("0")
    if not digits or len(digits) > 5:
        why = "; the built-in set writes no such line" if not digits else ""
        message = "%s is out of range (%s%s)"
        raise MatchFileError(path, line, column, message % (_shown(word), right, why))
    return int(digits, 16)


def _header(header, path, line, column, before):
    """(game, players, options, challenges) once the header is complete, checked
    by the engine."""
    for key in HEADER:
        if key not in header:
            if not header and before == "the end":
                message = "no match here (a match file starts with game, players and options)"
                raise MatchFileError(path, 0, 0, message)
            else:
                message = "no %r line before %s (the header is game, players and options)" % (
                    key,
                    before,
                )
            raise MatchFileError(path, line, column, message)
    game = header["game"][0]
    players = int(header["players"][0])
    options = int(header["options"][0])
    why = header_refusal(game, players, options)
    if why:
        at = (
            "game"
            if game not in GAMES
            else ("players" if header_refusal(game, players, 0) else "options")
        )
        raise MatchFileError(path, header[at][1], header[at][2], why)
    challenges = 0
    if SET_KEY in header:
        word, line, column = header[SET_KEY][:3]
        challenges = _set_word(word, path, line, column)
    return game, players, options, challenges


def load(path):
    """MatchFile of the file at `path`; MatchFileError for any problem, the file's own
    (missing, a directory, unreadable, a FIFO or a device) included."""
    kind = special(path)  # a FIFO would block open() for ever
    if kind:
        message = "not a regular file (%s); give a match file, as python -m sim --save writes them"
        raise MatchFileError(path, 0, 0, message % kind)
    try:
        with open(path, "rb") as f:
            data = f.read(LARGEST + 1)
    except IsADirectoryError:
        raise MatchFileError(
            path,
            0,
            0,
            "a folder, not a match file (%s)"
            % ("python -m host_tools replay reads a backup folder"),
        ) from None
    except FileNotFoundError:
        message = "no such file (give a match file, as python -m sim --save writes them)"
        raise MatchFileError(path, 0, 0, message) from None
    except PermissionError:
        raise MatchFileError(path, 0, 0, "not allowed to read it (permission denied)") from None
    except OSError as e:
        raise MatchFileError(path, 0, 0, "cannot read it (%s)" % (e.strerror or e)) from None
    if len(data) > LARGEST:
        raise MatchFileError(path, 0, 0, "larger than any match file (at most %d bytes)" % LARGEST)
    return parse(data, path)


def read(path):
    """(game, players, options, actions, challenges) of the match file at
    `path` (challenges: the set's word, 0 for the built-in set);
    MatchFileError names the first problem's line and column."""
    m = load(path)
    return m.game, m.players, m.options, m.actions, m.challenges


def set_name(word):
    """A challenge set as a refusal names it."""
    return "challenge set %05x from a file" % word if word else "the built-in challenge set"


def set_refusal(path, game, played, here):
    """Why a match file of `game` played with the set of word `played` is not
    folded with the set on hand, word `here` (0: the built-in set), or None.
    Another set's challenges would narrate, and even score, another match;
    other games have no challenges for a set to change."""
    if game != SET_GAME or played == here:
        return None
    hint = "give its file with --challenges" if played else "leave out --challenges"
    return "%s: played with %s, and the set here is %s (%s)" % (
        path,
        set_name(played),
        set_name(here),
        hint,
    )
