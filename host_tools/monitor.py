"""Follow the board's event log on its USB serial port, one timestamped line each.

The firmware writes one line per event (hal/console.py, the table app's
lines such as 'seat 2 play red d6:4', 'seat 1 refused: out of turn',
'registry: 40 tags'), padded with spaces to whole 64-byte packets.
format_line() makes a received line readable: the host's time, a mark for
what needs the maker's eye (refusals, faults, storage or journal trouble,
Python tracebacks, lines the board dropped), control characters, padding and
REPL prompts removed; the mirror's lines (hal/mirror.py) are left to the web
page's mirror.  The board never waits for the port: the lines it could not
write while nothing read them are dropped, and its next line says how many
("@lost N", shown as 'LOST  the board dropped N lines ...').  follow() is the
live loop; it only reads, so it never resets or stops the board (Ctrl-C ends
it: KeyboardInterrupt goes to the caller, the port closed).  The port is
opened and a line cleaned as the web page's mirror does (sim/boardport.py).
"""

from __future__ import annotations

import re
import time
from typing import Callable

from host_tools.board import NoBoard
from sim.boardport import NoPort, clean, lost_text, open_port, resolve_port

# What a maker should notice, first match wins.
_MARKS = (
    ("ERROR", re.compile(r"Traceback|Error\b|Exception|^  File ", re.I)),
    ("FAULT", re.compile(r"fault|not answering|corrupt|torn|failed|storage:", re.I)),
    ("REFUSED", re.compile(r"refused|ignored|unknown tag", re.I)),
    ("BOOT", re.compile(r"MicroPython v|soft reboot|maintenance:|resumed|registry:", re.I)),
    ("SCORE", re.compile(r"^(trick|scored|final):", re.I)),
)
_WIDTH = max(len(mark) for mark, _ in _MARKS)
# The mirror's lines (hal/mirror.py; @leds and @match before issue 22): for the web page.
MIRROR_WORDS = ("@l", "@k", "@j", "@u", "@leds", "@match")
LOST = "LOST"


class NoSerial(NoBoard):
    """No board answers on the serial port."""


def mark(line: str) -> str:
    """The mark of a log line ('REFUSED', 'FAULT', ...) or ''."""
    for name, pattern in _MARKS:
        if pattern.search(line):
            return name
    return ""


def format_line(raw: bytes | str, when: float) -> str | None:
    """'HH:MM:SS.mmm  MARK     line' for a received line (time.time() `when`,
    local time), or None for a line with nothing left to show: the board's
    mirror lines (@l, @k, @j, @u: hal/mirror.py) are for the web page's
    mirror.  "@lost N" is shown as what it says, marked LOST."""
    line = clean(raw)
    word, _, rest = line.partition(" ")
    if not line.strip() or word in MIRROR_WORDS:
        return None
    stamp = time.strftime("%H:%M:%S", time.localtime(when)) + ".%03d" % (int(when * 1000) % 1000)
    if word == "@lost" and rest.isdigit():
        return "%s  %-*s  %s" % (stamp, _WIDTH, LOST, lost_text(int(rest)))
    return "%s  %-*s  %s" % (stamp, _WIDTH, mark(line), line)


def follow(
    url: str,
    emit: Callable[[str], None],
    max_lines: int | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] = time.time,
    opened: Callable[[str], None] | None = None,
) -> int:
    """Read the port and emit each formatted line until Ctrl-C, the port
    closing, or (for tests) `max_lines` lines shown or `seconds` passed;
    `opened(url)` is called once the port is open.  Returns the lines shown."""
    import serial

    try:
        url = resolve_port(url)
        port = open_port(url)
    except NoPort as e:
        raise NoSerial(str(e)) from None
    if opened is not None:
        opened(url)
    shown = 0
    pending = b""
    end = None if seconds is None else time.monotonic() + seconds
    try:
        while max_lines is None or shown < max_lines:
            if end is not None and time.monotonic() > end:
                break
            try:
                chunk = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError) as e:
                raise NoSerial(
                    "the board at %s went away (%s): was the cable pulled?" % (url, e)
                ) from None
            if not chunk:
                continue
            pending += chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                text = format_line(raw, clock())
                if text is not None:
                    emit(text)
                    shown += 1
                    if max_lines is not None and shown >= max_lines:
                        break
    finally:
        port.close()
    return shown
