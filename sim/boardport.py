"""The board's USB serial port as the host finds, opens and reads it.

resolve_port('auto') is the first USB serial port that looks like a Pico
(Raspberry Pi's vendor id first, as `mpremote connect auto` takes the first
USB serial port).  open_port() opens a device (/dev/ttyACM0) or a pyserial
URL (socket://127.0.0.1:4000) to read.  Where there is no board on USB or
the port does not open, NoPort says in one line why, as far as the host can
tell (why_not()), and what to check.  clean() makes a received line text;
lost_text() says what the board's "@lost N" line means.

The web page's mirror (sim/web/mirror.py) reads the board with these; the
maker's tools connect (host_tools/board.py) and follow the log
(host_tools/monitor.py) through them, their refusals saying the same lines.
"""

from __future__ import annotations

import os
import re
import stat

PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id
NO_USB_BOARD = "no board found on USB: plug in the Pico or pass --port"
CHECK_PORT = "check the cable and the port (--port, e.g. /dev/ttyACM0, COM5 or socket://host:port)"

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_PROMPTS = (">>> ", "... ", "raw REPL; CTRL-B to exit", ">OK")


class NoPort(Exception):
    """No board found on USB, or the board's port did not open (one line)."""


def resolve_port(url: str) -> str:
    """`url` itself, or for 'auto' the first USB serial port that looks like a
    Pico, else the first USB serial port; NoPort if there is none."""
    if url != "auto":
        return url
    from serial.tools import list_ports

    ports = [p for p in list_ports.comports() if p.vid is not None]
    ports.sort(key=lambda p: (p.vid != PICO_VID, p.device))
    if not ports:
        raise NoPort(NO_USB_BOARD)
    return ports[0].device


def why_not(url: str) -> str:
    """Why a port would not open, as far as the host can tell."""
    if "://" in url:
        if url.startswith("socket://"):
            return "nothing answers there"
        return "the port did not open"
    try:
        mode = os.stat(url).st_mode
    except FileNotFoundError:
        return "no such device"
    except OSError as e:
        return "it did not open (%s)" % (e.strerror or e)
    if not stat.S_ISCHR(mode):
        return "not a serial device (a %s)" % ("folder" if stat.S_ISDIR(mode) else "file")
    if not os.access(url, os.R_OK | os.W_OK):
        return (
            "permission denied (on Linux, add yourself to the group of the device, "
            "e.g. dialout, and log in again)"
        )
    return "it did not open (is another program using it: monitor, Thonny, a terminal?)"


def no_board_at(url: str, why: str) -> str:
    """The line for a port that did not open, with what to check."""
    return "no board at %s: %s; %s" % (url, why, CHECK_PORT)


def open_port(url: str, timeout: float = 0.2):
    """A pyserial port for a device path or a URL ('socket://127.0.0.1:4000');
    'auto' picks the board's USB port."""
    import serial

    url = resolve_port(url)
    try:
        return serial.serial_for_url(url, baudrate=115200, timeout=timeout)
    except (serial.SerialException, OSError, ValueError) as e:
        why = str(e) if isinstance(e, ValueError) else why_not(url)
        raise NoPort(no_board_at(url, why)) from None


def clean(raw: bytes | str) -> str:
    """A received line as text: decoded, ANSI and control characters and
    REPL prompts removed, trailing space stripped."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = _ANSI.sub("", text)
    text = "".join(c for c in text if c == "\t" or c >= " ")
    for prompt in _PROMPTS:
        if text.startswith(prompt):
            text = text[len(prompt) :]
    return text.rstrip()


def lost_text(n: int) -> str:
    """What the board's "@lost N" line says."""
    return "the board dropped %d line%s: nothing read its console in time" % (
        n,
        "" if n == 1 else "s",
    )
