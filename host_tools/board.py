"""The connection to a board: mpremote's own transport, used from Python.

Board(url) opens mpremote's SerialTransport (the class `mpremote connect`
uses; pyserial accepts a device such as /dev/ttyACM0 or a URL such as
socket://127.0.0.1:PORT) and enters the raw REPL once; every call below is
then one or more raw-REPL executions on that one session, which is much
faster than a `python -m mpremote` process per operation.  mpremote tries
raw-paste mode first and falls back to the plain raw REPL by itself.

Files go through the transport's own file API (fs_readfile, fs_writefile,
fs_listdir, fs_stat, fs_mkdir, fs_rmfile, fs_rmdir, fs_hashfile), which
turns an OSError on the board into the host's; on top of it the project
keeps its own guarantees.  write() goes to PATH.tmp first and renames it
over PATH, so a cut connection leaves the old file or the new one, never
half a file under its real name.  write_many() stages several files as
PATH.tmp, checks each by SHA-256, then renames them all into place in one
execution, so a cut (cable, Ctrl-C) before that leaves the board's files as
they were, and after it all new.  A board's OSError reaches the caller as
FileNotFoundError (no such file) or BoardError saying it in words (the
flash is full, the file system is read-only).

The port is found as the web page's mirror finds it (sim/boardport.py:
'auto' is the first USB serial port that looks like a Pico).  NoBoard is
raised, with one line that says what to check, when no board is found or
nothing answers at the URL (no such port, nothing listening, or no REPL
prompt within the timeout), or when the connection is lost during a call.
"""

from __future__ import annotations

import errno
import hashlib
from typing import Any, Callable

from mpremote.transport import TransportError, TransportExecError, _convert_filesystem_error
from mpremote.transport_serial import SerialTransport

from host_tools.errors import ToolError
from sim.boardport import NoPort, no_board_at, resolve_port, why_not

# Bytes of file data per raw-REPL execution.  fs_writefile sends a chunk as a
# bytes literal (up to 4 characters a byte), which the board compiles: kept
# small enough for a board whose heap the app has fragmented.
READ_CHUNK = 4096
WRITE_CHUNK = 1024
DIR_MODE = 0x4000  # st_mode's folder bit, as MicroPython's os.ilistdir gives it
FS_ERRORS = {
    errno.ENOSPC: "the board's flash is full",
    errno.EROFS: "the board's file system is read-only",
}


class NoBoard(ToolError):
    """No board found, or nothing answers at the board's URL."""


class BoardError(ToolError):
    """Code run on the board raised an exception (its last line is the message)."""

    def __init__(self, text: str, message: str | None = None, errno: int | None = None) -> None:
        self.text = text  # the board's whole traceback
        self.errno = errno  # the OSError's number, for a file operation
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        super().__init__(message or "the board said: %s" % (lines[-1] if lines else "an error"))


NO_REPL = "the device at %s does not answer with a MicroPython REPL within %g s (%s): %s"
HOLD_BUTTON = "hold the maintenance button while plugging it in, then try again"


class _Link(SerialTransport):
    """mpremote's SerialTransport, whose lost connection is NoBoard: raised
    from under the fs_* calls, it is never taken for an OSError on the board."""

    url = ""

    def exec_raw(self, command: Any, timeout: Any = 10, data_consumer: Any = None) -> Any:
        try:
            return super().exec_raw(command, timeout=timeout, data_consumer=data_consumer)
        except (TransportError, OSError) as e:
            raise NoBoard("lost the board at %s: %s" % (self.url, e)) from None


class Board:
    """A MicroPython board at `url` (serial device, pyserial URL, or 'auto')."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        try:
            url = resolve_port(url)
        except NoPort as e:
            raise NoBoard(str(e)) from None
        self.url = url
        self.timeout = timeout
        try:
            self._t: Any = _Link(url, baudrate=115200)
            self._t.url = url
        except (TransportError, OSError, ValueError) as e:
            why = why_not(url) if isinstance(e, TransportError) else str(e).strip() or "bad port"
            raise NoBoard(no_board_at(url, why)) from None
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
        out, err = self._t.exec_raw(code, timeout=timeout)  # NoBoard if lost
        if err:
            raise BoardError(err.decode(errors="replace").strip())
        return out.decode(errors="replace").replace("\r\n", "\n")

    def soft_reset(self) -> None:
        """Soft-reset the board (boot.py runs again) and come back to the raw REPL."""
        try:
            self._t.enter_raw_repl(soft_reset=True, timeout_overall=max(self.timeout, 10))
        except (TransportError, OSError) as e:
            raise NoBoard(
                "the board at %s did not come back after a soft reset: %s" % (self.url, e)
            ) from None

    # -- files: mpremote's transport API, with the project's own rename on top ----

    def read(self, path: str) -> bytes:
        """The contents of a file on the board (FileNotFoundError if none)."""
        try:
            return bytes(self._fs(self._t.fs_readfile, path, chunk_size=READ_CHUNK))
        except BoardError:
            self._close_file()  # fs_readfile leaves its file open when it fails
            raise

    def write(self, path: str, data: bytes) -> None:
        """Write a whole file: to PATH.tmp, then renamed over PATH."""
        self._put(path + ".tmp", data, path)

    def _put(self, tmp: str, data: bytes, path: str | None) -> None:
        # Written by fs_writefile to `tmp`, then (if `path`) renamed into place.
        try:
            self._fs(self._t.fs_writefile, tmp, bytes(data), chunk_size=WRITE_CHUNK)
        except (BoardError, OSError):  # a full flash, say: the file is closed
            self._close_file()
            raise
        if path is not None:
            self._fs(self._exec_fs, path, f"import os\nos.rename({tmp!r},{path!r})")

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
                    raise BoardError(
                        "",
                        "%s: the copy on the board differs from the file "
                        "(%s); nothing was changed: try again" % (tmp, got),
                    )
        except Exception:  # a full flash, say: the staged copies go, the rest stays
            for tmp in staged:
                try:
                    self.remove(tmp)
                except (BoardError, NoBoard, OSError):
                    pass
            raise
        code = "import os\n"
        for path in remove:
            code += f"try:\n os.remove({path!r})\nexcept OSError:\n pass\n"
        for path in files:
            code += f"os.rename({path + '.tmp'!r},{path!r})\n"
        self._fs(self._exec_fs, ", ".join(files), code)

    def listdir(self, path: str = "") -> list[str]:
        """Names in a folder on the board ('' is the current one, the root)."""
        return sorted(entry.name for entry in self._fs(self._t.fs_listdir, path))

    def walk(self, path: str = "") -> dict[str, bool]:
        """Every entry under `path`: {relative path: is a folder}."""
        return {name: size is None for name, size in self.entries(path).items()}

    def entries(self, path: str = "") -> dict[str, int | None]:
        """Every entry under `path`: {relative path: size in bytes, None for a folder}."""
        found: dict[str, int | None] = {}
        for entry in self._fs(self._t.fs_listdir, path):
            name = (path + "/" if path else "") + entry.name
            is_dir = entry.st_mode & DIR_MODE != 0
            found[name] = None if is_dir else entry.st_size
            if is_dir and name != "proc":
                found.update(self.entries(name))
        return found

    def remove(self, path: str) -> None:
        """Delete a file."""
        self._fs(self._t.fs_rmfile, path)

    def rmdir(self, path: str) -> None:
        """Delete an empty folder."""
        self._fs(self._t.fs_rmdir, path)

    def mkdir(self, path: str) -> None:
        """Make a folder; nothing happens if it is already there."""
        try:
            self._fs(self._t.fs_mkdir, path)
        except BoardError as e:
            if e.errno != errno.EEXIST:
                raise

    def exists(self, path: str) -> bool:
        """True if a file or folder is there."""
        try:
            self._fs(self._t.fs_stat, path)
        except FileNotFoundError:
            return False
        return True

    def sha256(self, path: str) -> str | None:
        """The SHA-256 of a file on the board, in hex; None if there is no such file."""
        try:
            return self._fs(self._t.fs_hashfile, path, "sha256", chunk_size=READ_CHUNK).hex()
        except FileNotFoundError:
            return None

    def _exec_fs(self, path: str, code: str) -> str:
        # Filesystem code of the project's own (the renames), raising as fs_* do.
        try:
            return self.exec(code)
        except BoardError as e:
            raise _convert_filesystem_error(TransportExecError(1, e.text), path) from None

    def _close_file(self) -> None:
        # The file an fs_* call left open on the board ('f'), closed if it is there.
        try:
            self.exec("try:\n f.close()\nexcept Exception:\n pass")
        except (BoardError, NoBoard):
            pass

    def _fs(self, op: Callable[..., Any], path: str, *args: Any, **kw: Any) -> Any:
        # One fs_* call; an OSError on the board becomes the host's
        # FileNotFoundError or a BoardError that says it in words.
        try:
            return op(path, *args, **kw)
        except TransportExecError as e:  # not an OSError: the board's traceback
            raise BoardError(e.error_output.strip()) from None
        except OSError as e:
            if e.errno == errno.ENOENT:
                raise FileNotFoundError(errno.ENOENT, "no such file on the board", path) from None
            name = errno.errorcode.get(e.errno or 0, str(e.errno))
            why = FS_ERRORS.get(e.errno or 0, "OSError: [Errno %s] %s" % (e.errno, name))
            raise BoardError(
                "OSError: %s" % name, "%s on the board: %s" % (path, why), e.errno
            ) from None
