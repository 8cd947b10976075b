"""The connection to a board: mpremote's own transport, used from Python.

Board(url) opens mpremote's SerialTransport (the class `mpremote connect`
uses; pyserial accepts a device such as /dev/ttyACM0 or a URL such as
socket://127.0.0.1:PORT) and enters the raw REPL once; every call below is
then one or more raw-REPL executions on that one session, which is much
faster than a `python -m mpremote` process per operation.  mpremote tries
raw-paste mode first and falls back to the plain raw REPL by itself.

Files move as base64 in chunks (binascii is on every port); write() goes to
PATH.tmp first and renames it over PATH, so a cut connection leaves the old
file or the new one, never half a file under its real name.

write_many() stages several files as PATH.tmp, checks each by SHA-256, then
renames them all into place in one execution, so a cut (cable, Ctrl-C)
before that leaves the board's files as they were, and after it all new.

resolve_port('auto') is the first USB serial port that looks like a Pico
(Raspberry Pi's vendor id first, as `mpremote connect auto` takes the first
USB serial port); every command resolves --port through it.  NoBoard is
raised, with one line that says what to check, when no board is found or
nothing answers at the URL (no such port, nothing listening, or no REPL
prompt within the timeout).
"""

from __future__ import annotations

import ast
import binascii
import hashlib
import os
import stat
from typing import Any

from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from host_tools.errors import ToolError

CHUNK = 4096        # bytes of file data per raw-REPL execution


class NoBoard(ToolError):
    """No board found, or nothing answers at the board's URL."""


class BoardError(ToolError):
    """Code run on the board raised an exception (its last line is the message)."""

    def __init__(self, text: str, message: str | None = None) -> None:
        self.text = text                # the board's whole traceback
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        super().__init__(message or "the board said: %s" % (lines[-1] if lines else "an error"))


PICO_VID = 0x2E8A                       # Raspberry Pi's USB vendor id
NO_USB_BOARD = "no board found on USB: plug in the Pico or pass --port"
CHECK_PORT = "check the cable and the port (--port, e.g. /dev/ttyACM0, COM5 or socket://host:port)"
NO_REPL = "the device at %s does not answer with a MicroPython REPL within %g s (%s): %s"
HOLD_BUTTON = "hold the maintenance button while plugging it in, then try again"


def resolve_port(url: str) -> str:
    """`url` itself, or for 'auto' the first USB serial port that looks like a
    Pico, else the first USB serial port; NoBoard if there is none."""
    if url != "auto":
        return url
    from serial.tools import list_ports
    ports = [p for p in list_ports.comports() if p.vid is not None]
    ports.sort(key=lambda p: (p.vid != PICO_VID, p.device))
    if not ports:
        raise NoBoard(NO_USB_BOARD)
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
        return ("permission denied (on Linux, add yourself to the group of the device, "
                "e.g. dialout, and log in again)")
    return "it did not open (is another program using it: monitor, Thonny, a terminal?)"


def no_board_at(url: str, why: str) -> NoBoard:
    """NoBoard for a port that did not open, with what to check."""
    return NoBoard("no board at %s: %s; %s" % (url, why, CHECK_PORT))


class Board:
    """A MicroPython board at `url` (serial device, pyserial URL, or 'auto')."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        url = resolve_port(url)
        self.url = url
        self.timeout = timeout
        try:
            self._t: Any = SerialTransport(url, baudrate=115200)
        except (TransportError, OSError, ValueError) as e:
            why = why_not(url) if isinstance(e, TransportError) else str(e).strip() or "bad port"
            raise no_board_at(url, why) from None
        try:
            self._t.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
        except (TransportError, OSError) as e:
            self._close_quietly()
            raise NoBoard(NO_REPL % (url, timeout, e, HOLD_BUTTON)) from None

    # -- session -----------------------------------------------------------------

    def close(self) -> None:
        """Leave the raw REPL and close the connection."""
        try:
            self._t.exit_raw_repl()
        except (OSError, TransportError):
            pass
        self._close_quietly()

    def _close_quietly(self) -> None:
        try:
            self._t.close()
        except (OSError, TransportError):
            pass

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- code --------------------------------------------------------------------

    def exec(self, code: str, timeout: float = 30.0) -> str:
        """Run `code` on the board; its printed output.  BoardError if it raised."""
        try:
            out, err = self._t.exec_raw(code, timeout=timeout)
        except TransportError as e:
            raise NoBoard("lost the board at %s: %s" % (self.url, e)) from None
        except OSError as e:
            raise NoBoard("lost the board at %s: %s" % (self.url, e)) from None
        if err:
            raise BoardError(err.decode(errors="replace").strip())
        return out.decode(errors="replace").replace("\r\n", "\n")

    def eval(self, expr: str) -> Any:
        """The value of a Python literal expression evaluated on the board."""
        return ast.literal_eval(self.exec(f"print(repr({expr}))").strip())

    def soft_reset(self) -> None:
        """Soft-reset the board (boot.py runs again) and come back to the raw REPL."""
        try:
            self._t.enter_raw_repl(soft_reset=True, timeout_overall=max(self.timeout, 10))
        except (TransportError, OSError) as e:
            raise NoBoard("the board at %s did not come back after a soft reset: %s"
                          % (self.url, e)) from None

    # -- files -------------------------------------------------------------------

    def read(self, path: str) -> bytes:
        """The contents of a file on the board (FileNotFoundError if none)."""
        self._fs(f"_f=open({path!r},'rb')", path)
        data = bytearray()
        try:
            while True:
                line = self.exec("import binascii\nprint(binascii.b2a_base64("
                                 f"_f.read({CHUNK})).decode(),end='')")
                chunk = binascii.a2b_base64(line.strip())
                if not chunk:
                    break
                data += chunk
        finally:
            self.exec("_f.close()\ndel _f")
        return bytes(data)

    def write(self, path: str, data: bytes) -> None:
        """Write a whole file: to PATH.tmp, then renamed over PATH."""
        self._put(path + ".tmp", data, path)

    def _put(self, tmp: str, data: bytes, path: str | None) -> None:
        # One raw-REPL execution per CHUNK bytes: the first opens `tmp`, the
        # last closes it and (if `path`) renames it into place.
        parts = [data[i:i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""]
        for k, part in enumerate(parts):
            b64 = binascii.b2a_base64(part, newline=False)
            code = "import binascii\n"
            if k == 0:
                code += f"_f=open({tmp!r},'wb')\n"
            code += f"_f.write(binascii.a2b_base64({b64!r}))\n"
            if k == len(parts) - 1:
                code += "_f.close()\ndel _f\n"
                if path is not None:
                    code += f"import os\nos.rename({tmp!r},{path!r})\n"
            try:
                self._fs(code, path or tmp)
            except Exception:       # not Ctrl-C: the board may still be running the code
                try:
                    self.exec("try:\n _f.close()\nexcept Exception:\n pass")
                except (BoardError, NoBoard):
                    pass
                raise

    def write_many(self, files: dict[str, bytes], remove: tuple[str, ...] = ()) -> None:
        """Write several files as one change: each to PATH.tmp, checked by SHA-256;
        then, in one execution, the files in `remove` deleted (those there) and
        every PATH.tmp renamed over PATH.  Until that last step the board's
        files are as they were."""
        staged = []
        try:
            for path, data in files.items():
                tmp = path + ".tmp"
                staged.append(tmp)
                self._put(tmp, data, None)
                got = self.sha256(tmp)
                if got != hashlib.sha256(data).hexdigest():
                    raise BoardError("", "%s: the copy on the board differs from the file "
                                         "(%s); nothing was changed: try again" % (tmp, got))
        except Exception:           # a full flash, say: the staged copies go, the rest stays
            try:
                self.exec("import os\nfor _p in %r:\n try:\n  os.remove(_p)\n except OSError:\n"
                          "  pass" % (staged,))
            except (BoardError, NoBoard):
                pass
            raise
        code = "import os\n"
        for path in remove:
            code += f"try:\n os.remove({path!r})\nexcept OSError:\n pass\n"
        for path in files:
            code += f"os.rename({path + '.tmp'!r},{path!r})\n"
        self._fs(code, ", ".join(files))

    def listdir(self, path: str = "") -> list[str]:
        """Names in a folder on the board ('' is the current one, the root)."""
        names = self._fs(f"import os\nprint(repr(sorted(os.listdir({path!r}))))", path)
        return list(ast.literal_eval(names.strip()))

    def walk(self, path: str = "") -> dict[str, bool]:
        """Every entry under `path`: {relative path: is a folder}."""
        code = (
            "import os\n"
            "def _w(p, r):\n"
            " for e in os.ilistdir(p if p else '.'):\n"
            "  n = (p + '/' if p else '') + e[0]\n"
            "  d = e[1] & 0x4000 != 0\n"
            "  r[n] = d\n"
            "  if d and n != 'proc':\n"
            "   _w(n, r)\n"
            " return r\n"
            f"print(repr(_w({path!r}, {{}})))\n"
            "del _w\n"
        )
        return dict(ast.literal_eval(self._fs(code, path).strip()))

    def remove(self, path: str) -> None:
        """Delete a file."""
        self._fs(f"import os\nos.remove({path!r})", path)

    def rmdir(self, path: str) -> None:
        """Delete an empty folder."""
        self._fs(f"import os\nos.rmdir({path!r})", path)

    def mkdir(self, path: str) -> None:
        """Make a folder; nothing happens if it is already there."""
        self.exec(f"import os\ntry:\n os.mkdir({path!r})\nexcept OSError:\n os.stat({path!r})")

    def exists(self, path: str) -> bool:
        """True if a file or folder is there."""
        out = self.exec(f"import os\ntry:\n os.stat({path!r})\n print(1)\n"
                        "except OSError:\n print(0)")
        return out.strip() == "1"

    def sha256(self, path: str) -> str | None:
        """The SHA-256 of a file on the board, in hex; None if there is no such file."""
        code = (
            "import hashlib, binascii\n"
            "try:\n"
            f" _f = open({path!r}, 'rb')\n"
            "except OSError:\n"
            " print('None')\n"
            "else:\n"
            " _h = hashlib.sha256()\n"
            " _b = bytearray(1024)\n"
            " while True:\n"
            "  _n = _f.readinto(_b)\n"
            "  if not _n:\n"
            "   break\n"
            "  _h.update(_b if _n == 1024 else _b[:_n])\n"
            " _f.close()\n"
            " print(binascii.hexlify(_h.digest()).decode())\n"
            " del _f, _h, _b, _n\n"
        )
        out = self.exec(code).strip()
        return None if out == "None" else out

    def _fs(self, code: str, path: str) -> str:
        # Run filesystem code; an OSError on the board becomes the host's OSError.
        try:
            return self.exec(code)
        except BoardError as e:
            text = e.text
            if "ENOENT" in text or "OSError: 2\n" in text + "\n":
                raise FileNotFoundError(2, "no such file on the board", path) from None
            if "OSError" in text:
                last = text.strip().splitlines()[-1]
                why = {"28": "the board's flash is full", "ENOSPC": "the board's flash is full",
                       "30": "the board's file system is read-only",
                       "EROFS": "the board's file system is read-only",
                       }.get(last.split()[-1].strip("[]") if last.split() else "", last)
                raise BoardError(text, "%s on the board: %s" % (path, why)) from None
            raise
