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

NoBoard is raised, with a message that says what to check, when nothing
answers at the URL (no such port, nothing listening, or no REPL prompt within
the timeout).
"""

from __future__ import annotations

import ast
import binascii
from typing import Any

from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

CHUNK = 4096        # bytes of file data per raw-REPL execution


class NoBoard(Exception):
    """Nothing answers at the board's URL."""


class BoardError(Exception):
    """Code run on the board raised an exception (its traceback is the message)."""


class Board:
    """A MicroPython board at `url` (serial device or pyserial URL)."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url
        self.timeout = timeout
        try:
            self._t: Any = SerialTransport(url, baudrate=115200)
        except TransportError as e:
            why = e.args[0] if e.args else e
            raise NoBoard(f"no board at {url}: {why} "
                          "(is it plugged in, the port right, and no other program "
                          "using it?)") from None
        try:
            self._t.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
        except (TransportError, OSError) as e:
            self._close_quietly()
            raise NoBoard(f"the device at {url} does not answer with a MicroPython REPL "
                          f"within {timeout:g} s ({e}); hold the maintenance button "
                          "while plugging it in, then try again") from None

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
            raise NoBoard(f"lost the board at {self.url}: {e}") from None
        except OSError as e:
            raise NoBoard(f"lost the board at {self.url}: {e}") from None
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
            raise NoBoard(f"the board at {self.url} did not come back "
                          f"after a soft reset: {e}") from None

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
        """Write a whole file: to PATH.tmp, then renamed over PATH.

        One raw-REPL execution per CHUNK bytes: the first opens PATH.tmp, the
        last closes it and renames it into place.
        """
        tmp = path + ".tmp"
        parts = [data[i:i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""]
        for k, part in enumerate(parts):
            b64 = binascii.b2a_base64(part, newline=False)
            code = "import binascii\n"
            if k == 0:
                code += f"_f=open({tmp!r},'wb')\n"
            code += f"_f.write(binascii.a2b_base64({b64!r}))\n"
            if k == len(parts) - 1:
                code += f"_f.close()\ndel _f\nimport os\nos.rename({tmp!r},{path!r})\n"
            try:
                self._fs(code, path)
            except BaseException:
                try:
                    self.exec("try:\n _f.close()\nexcept Exception:\n pass")
                except (BoardError, NoBoard):
                    pass
                raise

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
            text = str(e)
            if "ENOENT" in text or "OSError: 2\n" in text + "\n":
                raise FileNotFoundError(2, "no such file on the board", path) from None
            if "OSError" in text:
                raise OSError(f"{path}: {text.splitlines()[-1]}") from None
            raise
