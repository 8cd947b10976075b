"""Back up and restore the board's data: the match journal and the tag registry.

backup(board, folder) copies journal.bin and registry.bin (each if present)
from the board into `folder` and returns the names copied.

restore(board, folder) first checks the files on the host, with the board's
own code (firmware/hal/storage.py's Storage over an in-memory filesystem):
the journal must load (status ok, or a torn last record, which the board
drops as well), its header must name a game, and every action must be
accepted when folded through that game's match engine (the table's SEATS and
SEED records, kinds 15 and 14, are skipped first as the table does); the
registry must load with status ok.  Anything else raises RestoreError and
nothing is written.  Then each file goes to the board through a temporary
file renamed into place (Board.write).
"""

from __future__ import annotations

import sys
from pathlib import Path

from host_tools.board import Board

_FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
if str(_FIRMWARE) not in sys.path:
    sys.path.insert(0, str(_FIRMWARE))

from dicetable.app import games  # noqa: E402
from dicetable.match.engine import GAMES  # noqa: E402
from dicetable.match.actions import OK  # noqa: E402
from hal import storage as st  # noqa: E402

FILES = ("journal.bin", "registry.bin")
_SEATS_KIND = 0xF
_SEED_KIND = 0xE


class RestoreError(Exception):
    """The backup does not check out; nothing was written to the board."""


class _MemFile:
    def __init__(self, fs: _MemFS, path: str, mode: str) -> None:
        self.fs, self.path, self.mode = fs, path, mode
        self.pos = 0
        if "w" in mode:
            fs.files[path] = b""
        elif path not in fs.files:
            raise OSError(2, "ENOENT")

    def read(self) -> bytes:
        return self.fs.files[self.path]

    def write(self, data: bytes) -> int:
        self.fs.files[self.path] = self.fs.files[self.path] + bytes(data)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


class _MemFS:
    """The `fs` interface Storage wants, in memory."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = dict(files)

    def open(self, path: str, mode: str) -> _MemFile:
        return _MemFile(self, path, mode)

    def remove(self, path: str) -> None:
        del self.files[path]

    def rename(self, old: str, new: str) -> None:
        self.files[new] = self.files.pop(old)

    def exists(self, path: str) -> bool:
        return path in self.files


def check_journal(data: bytes) -> str:
    """A one-line summary of a journal; RestoreError if it does not replay."""
    header, actions, status = st.Storage(_MemFS({"journal.bin": data})).load()
    if header is None or status not in (st.OK, st.TORN):
        raise RestoreError(f"journal.bin: {st.STATUS_NAMES[status]}: it does not load")
    game, players, opts = header[0], header[1], header[2] | (header[3] << 8)
    if game >= len(GAMES):
        raise RestoreError(f"journal.bin: unknown game {game}")
    try:
        match = games.new_match(game, players, opts)
    except (IndexError, ValueError, TypeError) as e:
        raise RestoreError(f"journal.bin: bad header ({e})") from None
    folded = 0
    for i, a in enumerate(actions):
        if a >> 20 in (_SEATS_KIND, _SEED_KIND):
            continue
        code = match.submit(a)
        if code != OK:
            raise RestoreError(f"journal.bin: record {i} ({a:#x}) is refused by the "
                               f"{GAMES[game]} engine (code {code}): it does not replay")
        folded += 1
    return f"{GAMES[game]}, {players} players, {folded} actions"


def check_registry(data: bytes) -> int:
    """The number of entries in a registry; RestoreError if it does not load."""
    entries, status = st.Storage(_MemFS({"registry.bin": data})).load_registry()
    if status != st.OK:
        raise RestoreError(f"registry.bin: {st.STATUS_NAMES[status]}")
    return len(entries)


def backup(board: Board, folder: str | Path) -> list[str]:
    """Copy journal.bin and registry.bin (those present) from the board to `folder`."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in FILES:
        if board.exists(name):
            (out / name).write_bytes(board.read(name))
            copied.append(name)
    return copied


def restore(board: Board, folder: str | Path) -> list[str]:
    """Check the backup in `folder` on the host, then copy it to the board."""
    src = Path(folder)
    data = {name: (src / name).read_bytes() for name in FILES if (src / name).exists()}
    if not data:
        raise RestoreError(f"{src}: no journal.bin or registry.bin to restore")
    if "journal.bin" in data:
        check_journal(data["journal.bin"])
    if "registry.bin" in data:
        check_registry(data["registry.bin"])
    for name, blob in data.items():
        board.write(name, blob)
        if board.read(name) != blob:
            raise RestoreError(f"{name}: the copy on the board differs; restore again")
    return list(data)
