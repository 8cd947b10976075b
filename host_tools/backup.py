"""Back up and restore the board's data: the match journal and the tag registry.

backup(board, folder) copies registry.bin and the journal into `folder` and
returns the names written.  The board keeps the journal in segment files
written in place on raw flash (firmware/hal/storage.py, hal/journal.py); the
backup's journal.bin is a journal image of 8 segments (journal_image.py).
The board's segments are read one after the other, in segment order, and a
journal that reads (its match, a torn last record dropped as the board drops
it) is saved made afresh from its match, as restore writes it but with the
area number BACKUP_AREA (normalised()): so the same match always gives the
same journal.bin, whatever else the board's segments held (undone actions,
older matches, the spare) and however they were laid out, and a backup, a
restore and a backup again give the same file byte for byte.  A journal that
does not read (damaged, no match in it) is saved as the board holds it, so
that nothing of it is lost.  registry.bin is saved as it is.
Everything is read from the board first; then the folder is written whole
under a temporary name beside it and renamed into place, so a backup is
never half-written and never mixes two boards.  An existing folder that is
not empty is refused (BackupExists) unless `force`, and then replaced whole
only once the new one is complete; --force replaces only a backup (a folder
of journal.bin and registry.bin), never a folder holding anything else, nor
the current folder.  A board with neither file is refused: there is nothing
to back up.

restore(board, folder) first checks the whole backup on the host
(check_backup): the journal must read (journal_image.read_image: its size,
its header through the engine's header_refusal, a torn last record dropped
as the board drops it; damage is refused) and every action must replay
through its game's engine (journal_image.check_replays); the registry must
load.  Anything else raises RestoreError and nothing is written.  The
journal goes to the board written afresh: its live actions in new segments
with a new area number, so that the board's scan never takes an old copy
for it.  Every file is staged as PATH.tmp and checked by hash, then the
board's journal.map is removed and all are renamed into place in one step
(Board.write_many); the board finds the new segments by their first bytes
at its next start.  A backup without a journal.bin leaves the board's
journal as it was; one without a registry.bin, the registry.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from flashmodel.norflash import BLOCK
from hal import storage as st
from host_tools.board import Board
from host_tools.errors import ToolError, read_bytes, shown, why
from host_tools.journal_image import (  # noqa: F401  (load_image, encode: the API)
    MAX_BLOCKS,
    Journal,
    JournalError,
    check_replays,
    encode,
    load_image,
    read_image,
    segment_name,
)
from host_tools.registry_csv import from_registry_bin
from sim.hostfile import special

JOURNAL = "journal.bin"
REGISTRY = "registry.bin"
FILES = (JOURNAL, REGISTRY)
SEGMENTS = MAX_BLOCKS
MAP = "journal.map"
# The area number of the segments of a saved journal.bin (a restore draws a new one).
BACKUP_AREA = 0x6B636142  # "Back"
REGISTRY_LIMIT = 5 + 256 * 14 + 2  # header, MAX_TAGS records, crc
WHAT_REGISTRY = "a registry.bin (as backup saves it)"

# The refusals, each as docs/refusals.md quotes it.
CURRENT_FOLDER = "%s is the current folder or holds it: give a new folder's name for the backup"
NOT_EMPTY = "%s is not empty: give a new folder, or --force to replace that backup %s"
REPLACED_WHOLE = "(it is replaced whole once the new one is complete)"
MORE_THAN_A_BACKUP = "%s holds more than a backup (%s): --force replaces a backup only; %s"
NOTHING_TO_BACK_UP = "the board has no journal and no registry.bin: nothing to back up"
A_FILE = "%s is a file, not a backup folder (give the folder of journal.bin and registry.bin)"
NOT_A_FOLDER = "%s is %s, not a backup folder (give the folder of journal.bin and registry.bin)"
NOTHING_TO_RESTORE = "%s holds no journal.bin or registry.bin: nothing to restore (give a backup)"
DAMAGED = "%s is damaged after action %d: restore takes a whole journal only (replay reads it)"
BAD_REGISTRY = "%s does not load (its size, check code or a record is wrong): not a registry"


class RestoreError(ToolError):
    """The backup does not check out; nothing was written to the board."""


class BackupExists(ToolError):
    """The backup folder is there already (and `force` was not given)."""


def check_destination(folder: str | Path, force: bool = False) -> None:
    """Refuse a backup folder that cannot be written or would be overwritten."""
    path = Path(folder)
    name = shown(folder)
    try:
        here = Path.cwd().resolve()
        if path.resolve() == here or path.resolve() in here.parents:
            raise BackupExists(CURRENT_FOLDER % name)
        if path.is_symlink():
            raise BackupExists("%s is a symbolic link: give a new folder's name" % name)
        if path.exists() and not path.is_dir():
            raise BackupExists("%s is a file, not a backup folder: give a new folder's name" % name)
        if path.is_dir() and any(path.iterdir()):
            if not force:
                raise BackupExists(NOT_EMPTY % (name, REPLACED_WHOLE))
            others = sorted(
                p.name
                for p in path.iterdir()
                if p.name not in FILES or not p.is_file() or p.is_symlink()
            )
            if others:
                raise BackupExists(
                    MORE_THAN_A_BACKUP
                    % (name, others[0] + (", ..." if len(others) > 1 else ""), "give a new folder")
                )
        parent = path.absolute().parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise BackupExists("%s is a file: a backup folder cannot go under it" % shown(parent))
        if not os.access(parent, os.W_OK | os.X_OK):
            raise BackupExists("cannot write in %s: permission denied" % shown(parent))
    except OSError as e:
        raise BackupExists("cannot use %s as a backup folder: %s" % (name, why(e))) from None


def registry_count(data: bytes) -> int | None:
    """The number of tags in a registry.bin, None if it does not load."""
    try:
        return len(from_registry_bin(data))
    except ValueError:
        return None


def describe(name: str, data: bytes) -> str:
    """What a backed-up file holds, in words: 'registry.bin (201 tags)'."""
    if name == REGISTRY:
        n = registry_count(data)
        return f"{REGISTRY} ({n} tags)" if n is not None else f"{REGISTRY} (it does not load)"
    try:
        journal = read_image(data)
    except JournalError as e:
        return f"{JOURNAL} ({str(e).removeprefix(JOURNAL).lstrip(': ')})"
    note = "; " + journal.note if journal.note else ""
    return f"{JOURNAL} ({journal.summary()}{note})"


def normalised(data: dict[str, bytes]) -> dict[str, bytes]:
    """The backup's files as they are saved: a journal image that reads (a
    match in it, its last record perhaps torn) made afresh from its match,
    its live actions in new segments with the area number BACKUP_AREA, so
    that the same match always gives the same journal.bin (a restore and a
    backup again give it byte for byte); one that does not read (damaged, no
    match) as the board holds it; registry.bin as it is."""
    out = dict(data)
    image = out.get(JOURNAL)
    if image is not None:
        try:
            journal = read_image(image)
        except JournalError:
            return out
        if journal.status != st.CORRUPT:
            out[JOURNAL] = encode(journal.header, journal.words, area=BACKUP_AREA)
    return out


def read_board(board: Board) -> dict[str, bytes]:
    """{name: bytes} of the journal image and registry.bin, those the board has
    (as the board holds them: normalised() is what a backup saves)."""
    data = {}
    image = b""
    for i in range(SEGMENTS):
        if not board.exists(segment_name(i)):
            break
        image += board.read(segment_name(i))
    if image:
        data[JOURNAL] = image
    if board.exists(REGISTRY):
        data[REGISTRY] = board.read(REGISTRY)
    return data


def write_folder(folder: str | Path, files: dict[str, bytes], force: bool = False) -> None:
    """Write `files` as the folder `folder`, whole: in a temporary folder beside
    it, renamed into place (an existing one, with `force`, replaced only then)."""
    path = Path(folder).absolute()
    check_destination(path, force)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="." + path.name + ".", suffix=".partial", dir=path.parent))
    old = None
    try:
        for name, blob in files.items():
            with open(tmp / name, "wb") as f:
                f.write(blob)
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, 0o777 & ~_umask())
        if path.is_dir():
            if any(path.iterdir()):
                old = Path(
                    tempfile.mkdtemp(prefix="." + path.name + ".", suffix=".old", dir=path.parent)
                )
                os.rmdir(old)
                os.rename(path, old)
            else:
                os.rmdir(path)
        os.rename(tmp, path)
    except BaseException:
        if old is not None and not path.exists():
            os.rename(old, path)  # the old backup back in its place
            old = None
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def backup(board: Board, folder: str | Path, force: bool = False) -> list[str]:
    """Copy the journal (as journal.bin) and registry.bin, those present, to
    `folder` (made whole; see the module docstring); the names written."""
    check_destination(folder, force)
    data = read_board(board)
    if not data:
        raise ToolError(NOTHING_TO_BACK_UP + "; nothing was written")
    write_folder(folder, normalised(data), force)
    return list(data)


@dataclass
class Backup:
    """A backup folder checked whole: what restore writes and what it checked."""

    folder: str
    journal: Journal | None
    journal_data: bytes | None  # the image as the board will get it
    registry: bytes | None
    tags: int = 0

    def restored(self) -> str:
        """What restore says it restored and checked, in one line."""
        done = []
        if self.registry is not None:
            done.append(f"{REGISTRY} ({self.tags} tags; checked: it loads)")
        if self.journal is not None:
            note = "; " + self.journal.note if self.journal.note else ""
            done.append(f"{JOURNAL} ({self.journal.summary()}; checked: replays to the end{note})")
        left = []
        if self.journal is None:
            left.append("the board's journal was left as it was (the backup has no journal.bin)")
        if self.registry is None:
            left.append("the board's registry was left as it was (the backup has no registry.bin)")
        return "restored %s from %s; %s" % (
            " and ".join(done),
            shown(self.folder),
            "; ".join(left + ["nothing else changed"]),
        )


def check_backup(folder: str | Path) -> Backup:
    """Read and check a backup folder whole; RestoreError if anything is wrong."""
    src = Path(folder)
    name = shown(folder)
    try:
        if not src.exists():
            raise RestoreError("no backup folder %s (give a folder that backup wrote)" % name)
        kind = special(src)
        if kind:
            raise RestoreError(NOT_A_FOLDER % (name, kind))
        if not src.is_dir():
            raise RestoreError(A_FILE % name)
        present = {f for f in FILES if (src / f).exists()}
    except OSError as e:
        raise RestoreError("cannot read the backup folder %s: %s" % (name, why(e))) from None
    if not present:
        raise RestoreError(NOTHING_TO_RESTORE % name)
    journal = image = registry = None
    tags = 0
    try:
        if JOURNAL in present:
            path = src / JOURNAL
            journal = read_image(
                read_bytes(path, "a journal image (journal.bin)", SEGMENTS * BLOCK), str(path)
            )
            if journal.status == st.CORRUPT:
                raise RestoreError(DAMAGED % (shown(path), len(journal.actions)))
            check_replays(journal)
            image = encode(journal.header, journal.words)
        if REGISTRY in present:
            path = src / REGISTRY
            registry = read_bytes(path, WHAT_REGISTRY, REGISTRY_LIMIT)
            count = registry_count(registry)
            if count is None:
                raise RestoreError(BAD_REGISTRY % shown(path))
            tags = count
    except ToolError as e:
        raise RestoreError("%s; nothing was restored" % e) from None
    return Backup(str(folder), journal, image, registry, tags)


def check_journal(data: bytes) -> str:
    """A one-line summary of a journal image; RestoreError if it does not replay."""
    try:
        journal = read_image(data)
        if journal.status == st.CORRUPT:
            raise RestoreError(f"{JOURNAL} is damaged after action {len(journal.actions)}")
        check_replays(journal)
    except JournalError as e:
        raise RestoreError(str(e)) from None
    return journal.summary()


def check_registry(data: bytes) -> int:
    """The number of entries in a registry; RestoreError if it does not load."""
    n = registry_count(data)
    if n is None:
        raise RestoreError(f"{REGISTRY}: it does not load")
    return n


def write_backup(board: Board, checked: Backup) -> list[str]:
    """Write a checked backup to the board as one change; the names restored."""
    files: dict[str, bytes] = {}
    remove: tuple[str, ...] = ()
    if checked.journal_data is not None:
        image = checked.journal_data
        files.update((segment_name(i), image[i * BLOCK : (i + 1) * BLOCK]) for i in range(SEGMENTS))
        remove = (MAP,)
    if checked.registry is not None:
        files[REGISTRY] = checked.registry
    board.write_many(files, remove)
    return [
        n
        for n, part in ((JOURNAL, checked.journal), (REGISTRY, checked.registry))
        if part is not None
    ]


def restore(board: Board, folder: str | Path) -> list[str]:
    """Check the backup in `folder` on the host, then copy it to the board."""
    return write_backup(board, check_backup(folder))
