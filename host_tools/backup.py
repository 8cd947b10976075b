"""Back up and restore the board's data: the match journal and the tag registry.

backup(board, folder) copies registry.bin and the journal into `folder` and
returns the names written.  The board keeps the journal in segment files
written in place on raw flash (firmware/hal/storage.py, hal/journal.py); the
backup's journal.bin is their bytes one after the other, in segment order,
as the board's filesystem reads them (a journal image).

restore(board, folder) first checks the files on the host, with the board's
own code (hal/storage.py's Storage over the NOR flash model): the journal
must load (status ok, or a torn last record, which the board drops as well),
its header must name a game, and every action must be accepted when folded
through that game's match engine (the table's SEATS and SEED records, kinds
15 and 14, are skipped first as the table does); the registry must load with
status ok.  Anything else raises RestoreError and nothing is written.  The
journal goes to the board written afresh: its live actions in new segments
with a new area number, so that the board's scan never takes an old copy
for it.  The board's journal.map goes first, then each segment file; the
board finds the segments by their first bytes at its next start.  Every
file goes through a temporary file renamed into place (Board.write).
"""

from __future__ import annotations

import sys
from pathlib import Path

from host_tools.board import Board

_ROOT = Path(__file__).resolve().parents[1]
for _p in (_ROOT / "firmware", _ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from dicetable.app import games  # noqa: E402
from dicetable.app.registry import unpack  # noqa: E402
from dicetable.match.actions import OK  # noqa: E402
from dicetable.match.engine import GAMES  # noqa: E402
from hal import storage as st  # noqa: E402
from sim.hw.norflash import BLOCK, NorFlash  # noqa: E402
from sim.hw.vflash import VFlash  # noqa: E402

FILES = ("journal.bin", "registry.bin")
SEGMENTS = 8
MAP = "journal.map"
_TABLE_KINDS = (0xF, 0xE)       # SEATS, SEED


class RestoreError(Exception):
    """The backup does not check out; nothing was written to the board."""


def segment_name(i: int) -> str:
    """The board's file of journal segment i."""
    return "journal%d.seg" % i


def load_image(data: bytes) -> tuple[bytes | None, list[int], int]:
    """(header4, actions, status) of a journal image, as the board loads it."""
    n = len(data) // BLOCK
    if n == 0 or len(data) % BLOCK:
        return None, [], st.CORRUPT
    nor = NorFlash(n)
    placed = {}
    for i in range(n):
        nor.block(i)[:] = data[i * BLOCK:(i + 1) * BLOCK]
        placed[segment_name(i)] = i
    header, actions, status = st.Storage(VFlash({}, nor, placed), segments=n).load()
    return header, list(actions), status


def encode(header: bytes, actions: list[int], segments: int = SEGMENTS) -> bytes:
    """A fresh journal image of a match: its leading table records go with the
    header, as the table writes them."""
    words = 0
    while words < min(len(actions), 4) and actions[words] >> 20 in _TABLE_KINDS:
        words += 1
    flash = VFlash()
    s = st.Storage(flash, segments=segments)
    s.new_match(header, tuple(actions[:words]))
    for a in actions[words:]:
        s.append(a)
    return b"".join(bytes(flash.raw.block(flash.placed[segment_name(i)]))
                    for i in range(segments))


def check_journal(data: bytes) -> str:
    """A one-line summary of a journal image; RestoreError if it does not replay."""
    header, actions, status = load_image(data)
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
        if a >> 20 in _TABLE_KINDS:
            continue
        code = match.submit(a)
        if code != OK:
            raise RestoreError(f"journal.bin: record {i} ({a:#x}) is refused by the "
                               f"{GAMES[game]} engine (code {code}): it does not replay")
        folded += 1
    return f"{GAMES[game]}, {players} players, {folded} actions"


def check_registry(data: bytes) -> int:
    """The number of entries in a registry; RestoreError if it does not load."""
    records, status = st.Storage(VFlash({"registry.bin": bytearray(data)})).load_registry()
    if status != st.OK:
        raise RestoreError(f"registry.bin: {st.STATUS_NAMES[status]}")
    return len(unpack(records))


def backup(board: Board, folder: str | Path) -> list[str]:
    """Copy the journal (as journal.bin) and registry.bin, those present, to `folder`."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    copied = []
    image = b""
    for i in range(SEGMENTS):
        if not board.exists(segment_name(i)):
            break
        image += board.read(segment_name(i))
    if image:
        (out / "journal.bin").write_bytes(image)
        copied.append("journal.bin")
    if board.exists("registry.bin"):
        (out / "registry.bin").write_bytes(board.read("registry.bin"))
        copied.append("registry.bin")
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
    writes = []
    if "journal.bin" in data:
        header, actions, _ = load_image(data["journal.bin"])
        assert header is not None
        image = encode(header, actions)
        writes = [(segment_name(i), image[i * BLOCK:(i + 1) * BLOCK]) for i in range(SEGMENTS)]
        if board.exists(MAP):
            board.remove(MAP)
    if "registry.bin" in data:
        writes.append(("registry.bin", data["registry.bin"]))
    for name, blob in writes:
        board.write(name, blob)
        if board.read(name) != blob:
            raise RestoreError(f"{name}: the copy on the board differs; restore again")
    return list(data)
