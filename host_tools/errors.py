"""What the host tools say when they refuse, and how they read and write host files.

ToolError is every refusal and failed operation: its message is the one line
the maker sees (`error: <message>`, exit status 1), saying what is wrong and
what would be right.  UsageError is a bad argument (exit status 2).  The
readers and the board connection raise subclasses of ToolError; __main__
turns them into that line, so no refusal ever shows a traceback.

read_bytes() reads a host file whole, up to a limit (a registry CSV, a
journal image, a registry.bin: all small), and says in one line what is
wrong with a path that is missing, a folder, unreadable or too large.
write_file() writes a host file through a temporary file beside it renamed
into place, so an interruption leaves the old file or the new one, never
half of one.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from sim.hostfile import special


class ToolError(Exception):
    """A refusal or a failed operation; the message is one line (exit status 1)."""

    status = 1


class UsageError(ToolError):
    """A bad argument (exit status 2)."""

    status = 2


_WHY = {
    errno.ENOENT: "no such file or folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EISDIR: "a folder, not a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "a read-only file system",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EEXIST: "it already exists",
    errno.ENOTEMPTY: "the folder is not empty",
    errno.ELOOP: "too many symbolic links",
}


def why(e: OSError) -> str:
    """A short, lower-case reason for an OSError."""
    if e.errno in _WHY:
        return _WHY[e.errno]
    text = e.strerror or str(e) or type(e).__name__
    return text[:1].lower() + text[1:]


def shown(path: str | os.PathLike[str]) -> str:
    """A path as a message shows it: as given, escaped if it holds control characters."""
    text = os.fspath(path)
    if any(c < " " or c == "\x7f" for c in text) or text != text.strip() or not text:
        return repr(text)
    return text


def size_text(n: int) -> str:
    """'1,234 bytes'."""
    return "{:,} bytes".format(n)


def read_bytes(path: str | os.PathLike[str], what: str, limit: int) -> bytes:
    """The bytes of the host file at `path` (`what` names what it should be, e.g.
    'a CSV file of tags'); ToolError with one line if it is missing, a folder,
    a FIFO, a device or a socket, unreadable or larger than `limit`."""
    name = shown(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ToolError("%s: no such file (give %s)" % (name, what)) from None
    except OSError as e:
        raise ToolError("%s: cannot read it: %s (give %s)" % (name, why(e), what)) from None
    if stat.S_ISDIR(info.st_mode):
        raise ToolError("%s is a folder (give %s)" % (name, what))
    kind = special(path)  # a FIFO would block open() for ever, /dev/zero never end
    if kind:
        raise ToolError("%s: not a regular file (%s); give %s" % (name, kind, what))
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise ToolError("%s: cannot read it: %s (give %s)" % (name, why(e), what)) from None
    if len(data) > limit:
        raise ToolError("%s is larger than %s: too large for %s" % (name, size_text(limit), what))
    return data


def write_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a host file whole: a temporary file in the same folder, renamed over `path`."""
    target = Path(path)
    folder = target.parent
    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=folder)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # as open() makes a file, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
