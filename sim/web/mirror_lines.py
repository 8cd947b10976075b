"""The lines a board's mirror writes among its log (firmware/hal/mirror.py;
every line one 64-byte packet, spaces before its line end; I and M in
decimal), as sim/web/mirror.py reads them:

    @l K/N <hex>    LEDs 8K to 8K+7 of the strip's N segments of 8, 3 bytes
                    an LED, wire order G, R, B (dicetable.app.frames.ORDER)
    @k M <hex>      a keyframe: the 4-byte header, then 3-byte words (the
                    SEATS word, the SEED word, the SET word of a set from a
                    file); the board's journal holds M actions, @j lines
                    bring them; "@k -": no match (menu or provisioning)
    @j I M <hex>    the journal's actions from the I-th on; it holds M now
    @u I M          the board's journal keeps only the first I actions sent
    @lost N         the board's console dropped N lines: nobody read the
                    port in time (hal/console.py); they were log lines, the
                    mirror's own lines wait on the board until there is room

Any other line is a log line.

segment(), keyframe(), journal_words(), cut() and lost() read the lines'
payloads, match() a whole journal; each refuses bad input with a ValueError
of one line, which the session logs as one line, its state otherwise
unchanged.  Lines cuts the port's bytes into lines.
"""

import re
import string

import table_config

from dicetable.app import games
from dicetable.app.frames import ORDER
from dicetable.app.play import SET_KIND
from dicetable.app.table import SEATS_RECORD, SEED_RECORD
from dicetable.games import GAMES, header_refusal, part
from dicetable.games.dicefull import data as dicefull_data
from dicetable.match.actions import REFUSAL_NAMES
from dicetable.match.engine import malformed
from sim.web.webtable import SEATS

SEAT_LEDS = table_config.LEDS_PER_SEAT  # each seat's segment, then the ring
RING_LEDS = table_config.RING_LEDS
HEADER_BYTES = 4  # game, players, options low byte, options high byte
WORD_BYTES = 3  # a journal word, big-endian
LONGEST_LINE = 1 << 16  # bytes without a line end: no line of the board's
_HEX = frozenset(string.hexdigits)
_LINE_END = re.compile(rb"\r\n|\r|\n")
MIRROR_LINES = ("@l", "@k", "@j", "@u", "@lost")


def _digits(text):
    """`text` stripped, once every character is a hex digit (ValueError if not)."""
    text = text.strip()
    if not text:
        raise ValueError("no hex digits")
    for i, c in enumerate(text):
        if c not in _HEX:
            raise ValueError("not hex: %r at digit %d" % (c, i + 1))
    return text


def _numbers(text, names):
    """The hex numbers `names` (one field each) at the start of `text`, and
    the rest."""
    fields = text.split(None, len(names))
    if len(fields) < len(names):
        raise ValueError("no %s" % names[len(fields)])
    for name, field in zip(names, fields[: len(names)], strict=True):
        if not all(c in _HEX for c in field):
            raise ValueError("%s %r is not a hex number" % (name, field[:20]))
    rest = fields[len(names)] if len(fields) > len(names) else ""
    return [int(x, 16) for x in fields[: len(names)]], rest


def segment(text):
    """(K, N, the (r, g, b) of its 8 LEDs) of an @l line's payload "K/N <hex>":
    segment K of the strip's N (each seat's 8 LEDs, then the ring's two)."""
    where, _, hex_text = text.strip().partition(" ")
    k, slash, n = where.partition("/")
    if not (slash and k.isdigit() and n.isdigit() and where.isascii()):
        raise ValueError("%r is not K/N (segment K of N)" % where[:20])
    k, n = int(k), int(n)
    if not 1 <= n - RING_LEDS // SEAT_LEDS <= len(SEATS):
        raise ValueError(
            "%d segments, not 8 LEDs a seat for 1 to %d seats and the ring's 16" % (n, len(SEATS))
        )
    if k >= n:
        raise ValueError("segment %d of %d" % (k, n))
    text = _digits(hex_text)
    if len(text) != 2 * 3 * SEAT_LEDS:
        raise ValueError("%d hex digits, not 8 LEDs (48 digits)" % len(text))
    data = bytes.fromhex(text)
    # ORDER[c] is where colour c (R, G, B) is within an LED's bytes (G, R, B).
    r, g, b = ORDER
    return k, n, [(data[3 * i + r], data[3 * i + g], data[3 * i + b]) for i in range(SEAT_LEDS)]


def keyframe(text):
    """(M, the header and words as hex) of an @k line's payload "M <hex>", or
    None for "-" (no match on the table).  The header must be one the engine
    takes, the words the table's records (SEATS, SEED, and SET for a set
    from a file)."""
    if text.strip() == "-":
        return None
    (told,), rest = _numbers(text, ("M",))
    head = _digits(rest)
    parsed = match(head)
    if parsed is not None and parsed[3]:
        raise ValueError(
            "words after the table's records (SEATS, SEED, SET): actions come in @j lines"
        )
    return told, head


def journal_words(text):
    """(I, the actions) of an @j line's payload "I <hex>"."""
    (first,), rest = _numbers(text, ("I",))
    words = _digits(rest)
    if len(words) % (2 * WORD_BYTES):
        raise ValueError("%d hex digits, not whole actions (6 digits each)" % len(words))
    return first, [int(words[i : i + 6], 16) for i in range(0, len(words), 6)]


def cut(text):
    """I of an @u line's payload: the journal keeps the first I actions sent."""
    (kept,), rest = _numbers(text, ("I",))
    if rest.strip():
        raise ValueError("%r after I" % rest.strip()[:20])
    return kept


def lost(text):
    """N of an @lost line's payload (decimal): the lines the console dropped."""
    n = text.strip()
    if not n.isdigit() or not n.isascii():
        raise ValueError("N %r is not a number" % n[:20])
    return int(n)


def match(hex_text):
    """(header: 4 bytes, SEATS word, SEED word, actions) of a whole journal as
    hex (an @k line's header and words, then its @j lines' actions), or None
    for "-" (no match on the table).  The header must be one the engine
    takes, the words the table's records, and every action one the rules
    take in turn."""
    if hex_text.strip() == "-":
        return None
    text = _digits(hex_text)
    if len(text) % 2:
        raise ValueError("%d hex digits, not whole bytes" % len(text))
    data = bytes.fromhex(text)
    if len(data) < HEADER_BYTES + 2 * WORD_BYTES or (len(data) - HEADER_BYTES) % WORD_BYTES:
        raise ValueError(
            "%d bytes, not the 4-byte header and 3-byte words (SEATS, SEED, the actions)"
            % len(data)
        )
    header = data[:HEADER_BYTES]
    _check_header(header)
    words = [
        int.from_bytes(data[i : i + WORD_BYTES], "big")
        for i in range(HEADER_BYTES, len(data), WORD_BYTES)
    ]
    seats_word, seed_word, actions = words[0], words[1], words[2:]
    _check_seats(seats_word, header[1])
    if seed_word >> 20 != SEED_RECORD >> 20:
        raise ValueError(
            "SEED word %#08x is not SEED_RECORD (%#x) plus a seed" % (seed_word, SEED_RECORD)
        )
    played = 0  # the SET word: the board plays a challenge set from a file
    if actions and actions[0] >> 20 == SET_KIND:
        played, actions = actions[0] & 0xFFFFF, actions[1:]
    if played != dicefull_data.SET_WORD:  # the replica folds with the set here
        raise ValueError(
            "the board plays %s, the mirror %s (give the board's dicefull.txt with --challenges)"
            % (_set_name(played), _set_name(dicefull_data.SET_WORD))
        )
    _check_actions(header, actions)
    return header, seats_word, seed_word, actions


def _set_name(word):
    return "challenge set %05x from a file" % word if word else "the built-in challenge set"


def _check_header(header):
    g, players = header[0], header[1]
    if g >= len(GAMES):
        raise ValueError(
            "game %d: no such game (0 to %d: %s)" % (g, len(GAMES) - 1, ", ".join(GAMES))
        )
    why = header_refusal(GAMES[g], players, header[2] | header[3] << 8)
    if why:
        raise ValueError("header refused: %s" % why)


def _check_seats(word, players):
    mask = word & 0xFFFF
    if word >> 20 != SEATS_RECORD >> 20 or word & 0x0F0000 or mask >> len(SEATS):
        raise ValueError(
            "SEATS word %#08x is not SEATS_RECORD (%#x) plus a mask of the seats 0 to %d"
            % (word, SEATS_RECORD, len(SEATS) - 1)
        )
    if bin(mask).count("1") != players:
        raise ValueError(
            "SEATS word %#08x names %d seats for %d players" % (word, bin(mask).count("1"), players)
        )


def _check_actions(header, actions):
    """Every action in turn, as the engine takes it (ValueError at the first
    malformed or refused one: the replica would resume only before it)."""
    g = header[0]
    m = part(g, "match").new(header[1], header[2] | header[3] << 8)
    for i, a in enumerate(actions):
        if malformed(a):
            raise ValueError("action %d, %#08x, is no action word" % (i + 1, a))
        code = m.submit(a)
        if code:
            raise ValueError(
                "action %d, %#08x (%s), refused: %s"
                % (i + 1, a, games.action_words(g, a), REFUSAL_NAMES[code])
            )


class Lines:
    """The port's bytes cut into lines at \\r\\n, \\r or \\n.  The bytes before a
    connection's first line end are kept only when they start with '@' (a
    whole @ line): otherwise they may be the tail of a line the board was
    printing when the port opened."""

    def __init__(self):
        self.pending = b""
        self.first = True

    def feed(self, chunk):
        """The lines that `chunk` completes (bytes, without their ends), and
        whether a line too long to be the board's was dropped."""
        data = self.pending + chunk
        held = data.endswith(b"\r")  # maybe the first half of \r\n
        lines = _LINE_END.split(data[:-1] if held else data)
        self.pending = lines.pop() + (b"\r" if held else b"")
        dropped = len(self.pending) > LONGEST_LINE
        if dropped:
            self.pending = b""
        if lines and self.first:
            self.first = False
            if not lines[0].startswith(b"@"):
                lines.pop(0)
        return lines, dropped
