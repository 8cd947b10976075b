"""The board connection, flash, backup and restore against the virtual board
(MicroPython WebAssembly under Node, sim/vboard) through the real mpremote."""

from __future__ import annotations

import pickle
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dicetable.app.registry import pack
from dicetable.games import header
from host_tools.backup import BACKUP_AREA, RestoreError, backup, encode, load_image, restore
from host_tools.board import Board, NoBoard
from host_tools.flash import _sha, build, flash
from sim.vboard import VirtualBoard

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"


@pytest.fixture
def vboard(tmp_path):
    vb = VirtualBoard(tmp_path / "flash").start()
    try:
        yield vb
    finally:
        vb.stop()


@pytest.fixture(scope="module")
def built():
    return build(FIRMWARE)


def _preload(folder: Path, files: dict[str, bytes]) -> None:
    # A board flashed earlier: its flash as the host folder the virtual board loads.
    for name, data in files.items():
        p = folder / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


@pytest.mark.slow
def test_mpremote_cli_against_the_virtual_board(vboard, tmp_path):
    mp = [sys.executable, "-m", "mpremote", "connect", vboard.url]
    src = tmp_path / "x.txt"
    src.write_bytes(b"hello board\n")
    r = subprocess.run(
        mp
        + [
            "exec",
            "print(6*7)",
            "+",
            "fs",
            "mkdir",
            ":d",
            "+",
            "fs",
            "cp",
            str(src),
            ":d/x.txt",
            "+",
            "fs",
            "ls",
            ":d",
            "+",
            "sha256sum",
            ":d/x.txt",
            "+",
            "soft-reset",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert "42" in r.stdout and "x.txt" in r.stdout
    assert _sha(src.read_bytes()) in r.stdout
    r = subprocess.run(
        mp + ["fs", "rm", ":nope"], capture_output=True, text=True, timeout=30, check=False
    )
    assert r.returncode != 0 and "No such file" in r.stderr  # errno translated (44 -> 2)
    r = subprocess.run(
        mp + ["fs", "mkdir", ":d"], capture_output=True, text=True, timeout=30, check=False
    )
    assert "File exists" in r.stderr


@pytest.mark.slow
def test_board_api(vboard):
    with Board(vboard.url) as b:
        assert b.exec("print(1 + 1)").strip() == "2"
        b.mkdir("a")
        b.mkdir("a")
        data = bytes(range(256)) * 40
        b.write("a/f.bin", data)
        assert b.read("a/f.bin") == data
        assert b.sha256("a/f.bin") == _sha(data)
        assert b.sha256("a/none") is None
        assert b.listdir("a") == ["f.bin"]
        with pytest.raises(FileNotFoundError):
            b.read("nope")
        b.remove("a/f.bin")
        assert b.listdir("a") == []
        b.soft_reset()
        assert b.exec("print('after')").strip() == "after"


@pytest.mark.slow
def test_writes_go_through_a_temporary_file(vboard):
    """A write cut before its last chunk leaves the old file whole; write_many
    changes nothing until its one renaming step."""
    with Board(vboard.url) as b:
        b.write("f.bin", b"old")
        real = b.exec

        def cut(code, timeout=30.0):
            if "os.rename" in code:
                raise NoBoard("cable pulled")
            return real(code, timeout)

        b.exec = cut  # type: ignore[method-assign]
        with pytest.raises(NoBoard):
            b.write("f.bin", bytes(10000))
        with pytest.raises(NoBoard):
            b.write_many({"f.bin": b"new", "g.bin": b"new"})
        b.exec = real  # type: ignore[method-assign]
        assert b.read("f.bin") == b"old" and not b.exists("g.bin")
        b.write_many({"f.bin": b"new", "g.bin": b"new"}, remove=("nothing",))
        assert b.read("f.bin") == b.read("g.bin") == b"new"
        assert [n for n in b.listdir("") if n.endswith(".tmp")] == []


def test_no_board():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(NoBoard, match="no board at"):
        Board(f"socket://127.0.0.1:{port}", timeout=2)


@pytest.mark.slow
def test_flash_full_then_nothing(vboard, built):
    steps = []
    with Board(vboard.url) as b:
        copied = flash(b, FIRMWARE, lambda i, n, p: steps.append((i, n, p)))
        assert sorted(copied) == sorted([*built, "firmware.id"])
        assert copied[-2:] == ["firmware.id", "main.py"]
        assert copied[:3] == ["pins.mpy", "maintenance.mpy", "boot.py"]
        assert steps[-1][:2] == (len(built) + 1, len(built) + 1)
        for path, data in built.items():
            assert b.sha256(path) == _sha(data)
        first_id = b.exec("print(open('firmware.id').read().strip())").strip()
        assert len(first_id) == 5 and int(first_id, 16) > 0
        assert flash(b, FIRMWARE) == []  # the same code: nothing copied, the id kept
        assert b.exec("print(open('firmware.id').read().strip())").strip() == first_id
        assert b.exec("import maintenance\nprint(maintenance.requested())").strip() == "True"
        assert "pyrightconfig.json" not in b.listdir("")
    vboard.power_cycle()
    with Board(vboard.url) as b:
        out = b.exec("from dicetable.games import GAMES\nprint(GAMES[0])")
        assert out.strip() == "dtwww"


class _Cut(Exception):
    pass


@pytest.mark.slow
def test_interrupted_flash_keeps_maintenance_and_rerun_repairs(tmp_path, built):
    # An older firmware on the board: several modules differ, one is gone, a
    # stale source file is there.
    old_fw = tmp_path / "old"
    shutil.copytree(FIRMWARE, old_fw, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in (
        "pins.py",
        "maintenance.py",
        "hal/storage.py",
        "dicetable/app/menu.py",
        "main.py",
        "boot.py",
    ):
        with open(old_fw / rel, "a") as f:
            f.write("\n_OLD = 1\n")
    old = build(old_fw)
    old["stale_module.py"] = b"x = 1\n"
    flash_dir = tmp_path / "flash"
    _preload(flash_dir, old)
    with VirtualBoard(flash_dir) as vb:

        def cut(i, n, path):
            if i == 3:
                raise _Cut(path)

        with Board(vb.url) as b, pytest.raises(_Cut):
            flash(b, FIRMWARE, cut)
        vb.power_cycle()  # the board restarts on the half-flashed state
        with Board(vb.url) as b:
            assert b.sha256("main.py") is None  # no app starts mid-flash
            assert b.exec("import maintenance\nprint(maintenance.requested())").strip() == "True"
            b.soft_reset()  # boot.py runs without error
            assert b.exec("exec(open('boot.py').read())").strip().startswith("maintenance")
            copied = flash(b, FIRMWARE)
            assert "main.py" in copied and "pins.mpy" not in copied
            for path, data in built.items():
                assert b.sha256(path) == _sha(data), path
            assert b.sha256("stale_module.py") is None
            assert copied[-2:] == ["firmware.id", "main.py"]
            assert flash(b, FIRMWARE) == []


# `python -m host_tools flash` (make flash's command) in a child process that
# kills itself with SIGKILL, as a killed `make flash` dies, at one point of one
# file's copy: its argv is STEP PATH BUILD then the CLI's.  STEP "copy": before
# the file's last chunk goes (its PATH.tmp holds the others, or nothing);
# "rename": with PATH.tmp whole, before its rename; "verify": once the board
# has been sent the hash read-back of the renamed file, before its answer.
# BUILD is the test's build (pickled), so that mpy-cross is not run each time.
KILLED_FLASH = """
import os, pickle, signal, sys
from host_tools import board, flash
from host_tools.__main__ import main

step, target, build = sys.argv[1:4]
with open(build, "rb") as f:
    files = pickle.load(f)
flash.build = lambda firmware_dir: dict(files)
now = {"path": None, "chunks": 0, "written": None}


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def write(self, path, data, real=board.Board.write):
    now.update(path=path, chunks=-(-len(data) // board.WRITE_CHUNK), written=None)
    real(self, path, data)
    now["written"] = path


def exec_raw(self, command, timeout=10, data_consumer=None, real=board._Link.exec_raw):
    if now["path"] == target:
        if step == "copy" and now["written"] is None and command.startswith("w("):
            now["chunks"] -= 1
            if now["chunks"] == 0:
                die()
        if step == "rename" and command.startswith("import os\\nos.rename("):
            die()
        if step == "verify" and now["written"] == target and "readinto" in command:
            self.exec_raw_no_follow(command)
            die()
    return real(self, command, timeout, data_consumer)


board.Board.write = write
board._Link.exec_raw = exec_raw
sys.exit(main(sys.argv[4:]))
"""

# The points sampled in each step: the first file a flash copies, one in the
# middle (the app's), the last (main.py).
KILL_AT = ("pins.mpy", "hal/storage.mpy", "main.py")


def _boot_app(folder: Path) -> list[str]:
    """The log of the table app powering up on the board's data files in
    `folder` (its flash), in CPython: each segment file on a raw block of its
    own, where journal.map says (the files were laid out so)."""
    from dicetable.app.rng import Rng
    from dicetable.app.table import Table
    from flashmodel.vflash import VFlash
    from hal.storage import Storage
    from sim.hw.rig import Config

    flash = VFlash()
    for name in ("journal.map", "registry.bin", "firmware.id", *_SEGMENTS):
        if (folder / name).exists():
            with flash.open(name, "wb") as f:
                f.write((folder / name).read_bytes())
    storage = Storage(flash)
    assert storage._read_map() is not None  # the map fits: nothing found again
    lines: list[str] = []
    Table(
        Config([0, 1, 2, 3, 4], 8, 16), storage, Rng(1), lambda line: lines.append(line.text())
    ).boot()
    return lines


_SEGMENTS = tuple("journal%d.seg" % i for i in range(8))


@pytest.mark.slow
@pytest.mark.parametrize("step", ["copy", "rename", "verify"])
def test_a_killed_flash_run_again_keeps_the_registry_and_the_match(tmp_path, built, step):
    # An older firmware on the board (the maintenance set, app modules and
    # main.py differ; a stale module), a match running and tags registered.
    old_fw = tmp_path / "old"
    shutil.copytree(FIRMWARE, old_fw, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in ("pins.py", "maintenance.py", "boot.py", "hal/storage.py", "main.py"):
        with open(old_fw / rel, "a") as f:
            f.write("\n_OLD = 1\n")
    header, actions = _match(40)
    data = {**_board_files(header, actions), "firmware.id": b"00abc\n"}
    flash_dir = tmp_path / "flash"
    _preload(flash_dir, {**build(old_fw), "stale_module.py": b"x = 1\n", **data})
    pickled = tmp_path / "build.pickle"
    pickled.write_bytes(pickle.dumps(built))
    resumed = "resumed Nokosu at action %d" % (len(actions) - 1)  # less the SEATS record

    def boots_and_keeps_the_data(app: bool) -> None:
        vb.power_cycle()  # boot.py and main.py run on what the flash left
        on_flash = {p.relative_to(flash_dir).as_posix() for p in flash_dir.rglob("*")}
        assert ("main.py" in on_flash) == app
        if app:
            assert (flash_dir / "main.py").read_bytes() == built["main.py"]
        for name, blob in data.items():
            if name != "firmware.id":
                assert (flash_dir / name).read_bytes() == blob, name
        with Board(vb.url) as b:  # the board answers, its maintenance set whole
            assert b.exec("exec(open('boot.py').read())").startswith("maintenance")
            if app:
                b.exec("from dicetable.app.table import Table")
        lines = _boot_app(flash_dir)
        assert "registry: 2 tags" in lines and resumed in lines, lines

    with VirtualBoard(flash_dir) as vb:
        for path in KILL_AT:
            r = subprocess.run(
                [sys.executable, "-c", KILLED_FLASH, step, path, str(pickled)]
                + ["flash", "--port", vb.url],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert r.returncode == -signal.SIGKILL, (path, r.stderr)
            assert "%s\n" % path not in r.stderr  # killed before its progress line
            # main.py is on the board once its copy was renamed into place.
            boots_and_keeps_the_data(app=path == "main.py" and step == "verify")
            tmp = flash_dir / (path + ".tmp")  # the flash folder as the power cycle saved it
            assert tmp.exists() == (step in ("copy", "rename")), path
        r = subprocess.run(
            [sys.executable, "-m", "host_tools", "flash", "--port", vb.url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        # Killed in the verify of main.py, every file was in place already.
        done = "the board already has" if step == "verify" else "files copied"
        assert r.returncode == 0 and done in r.stderr, r.stderr
        boots_and_keeps_the_data(app=True)
    for path, blob in built.items():
        assert (flash_dir / path).read_bytes() == blob, path
    left = [p.name for p in flash_dir.rglob("*") if p.name.endswith(".tmp")]
    assert left == [] and not (flash_dir / "stale_module.py").exists()
    assert (flash_dir / "firmware.id").read_bytes() != b"00abc\n"


def _match(n_actions: int) -> tuple[bytes, list[int]]:
    """A Nokosu match's header and its first actions, after the table's SEATS record."""
    from dicetable import games as registry

    m = registry.part(4, "match").new(3, 0)  # nokosu, 3 players
    actions = [0xF00007]  # SEATS record, skipped by the fold
    for _ in range(n_actions):
        seats = [p for p in (0, 1, 2, 7) if m.legal_actions(p)]  # 7: the table
        if not seats:
            break
        a = m.legal_actions(seats[0])[0]
        assert m.submit(a) == 0
        actions.append(a)
    return header(m), actions


def _board_files(header: bytes, actions: list[int]) -> dict[str, bytes]:
    """The journal's files as a board holds them, and its registry."""
    from flashmodel.vflash import VFlash
    from hal.storage import Storage

    flash = VFlash()
    s = Storage(flash)
    s.new_match(header, tuple(actions[:1]))
    for a in actions[1:]:
        s.append(a)
    s.save_registry(pack([(b"\x01\x02\x03\x04", 0, 5), (bytes(7), 4, 2)]))
    files = {s.segment_path(i): bytes(flash.open(s.segment_path(i), "rb").read()) for i in range(8)}
    files["journal.map"] = bytes(flash.files["journal.map"])
    files["registry.bin"] = bytes(flash.files["registry.bin"])
    return files


@pytest.mark.slow
def test_backup_restore_round_trip(vboard, tmp_path):
    header, actions = _match(6)
    files = _board_files(header, actions)
    with Board(vboard.url) as b:
        for name, data in files.items():
            b.write(name, data)
        assert backup(b, tmp_path / "bk") == ["journal.bin", "registry.bin"]
        image = (tmp_path / "bk" / "journal.bin").read_bytes()
        # The match made afresh with the backup's area number, not the board's bytes.
        assert image != b"".join(files["journal%d.seg" % i] for i in range(8))
        assert image == encode(header, actions, area=BACKUP_AREA)
        assert load_image(image) == (header, actions, 0)
        b.remove("journal3.seg")
        b.write("registry.bin", b"junk")
        assert restore(b, tmp_path / "bk") == ["journal.bin", "registry.bin"]
        assert b.read("registry.bin") == files["registry.bin"]
        assert not b.exists("journal.map")  # the board scans for the new segments
        again = b"".join(b.read("journal%d.seg" % i) for i in range(8))
        # A new area number on the board, so that its scan never takes an old block for it.
        assert again != image and load_image(again) == (header, actions, 0)
        assert backup(b, tmp_path / "bk2") == ["journal.bin", "registry.bin"]
    for name in ("journal.bin", "registry.bin"):  # backup, restore, backup: byte for byte
        assert (tmp_path / "bk2" / name).read_bytes() == (tmp_path / "bk" / name).read_bytes()


@pytest.mark.slow
def test_restore_refuses_a_corrupt_journal(vboard, tmp_path):
    header, actions = _match(6)
    image = bytearray(encode(header, actions))
    image[256 + 8 * 2 + 1] ^= 0xFF  # a record in the middle
    bk = tmp_path / "bk"
    bk.mkdir()
    (bk / "journal.bin").write_bytes(bytes(image))
    with Board(vboard.url) as b:
        b.write("journal0.seg", b"old")
        with pytest.raises(RestoreError, match="journal"):
            restore(b, bk)
        assert b.read("journal0.seg") == b"old"


@pytest.mark.slow
def test_flash_keeps_the_registry_and_the_running_match(tmp_path, built):
    # A board flashed with an older firmware, a match running and tags registered.
    old_fw = tmp_path / "old"
    shutil.copytree(FIRMWARE, old_fw, ignore=shutil.ignore_patterns("__pycache__"))
    with open(old_fw / "hal" / "board.py", "a") as f:
        f.write("\n_OLD = 1\n")
    header, actions = _match(40)
    data = _board_files(header, actions)
    flash_dir = tmp_path / "flash"
    _preload(flash_dir, {**build(old_fw), **data, "firmware.id": b"00abc\n"})
    with VirtualBoard(flash_dir) as vb:
        with Board(vb.url) as b:
            assert "hal/board.mpy" in flash(b, FIRMWARE)
            # Other code, another id: the match's journal is folded checked.
            assert b.read("firmware.id") not in (b"00abc\n", None)
        vb.power_cycle()
        with Board(vb.url) as b:
            for name, blob in data.items():
                assert b.sha256(name) == _sha(blob), name
            assert backup(b, tmp_path / "bk") == ["journal.bin", "registry.bin"]
    assert load_image((tmp_path / "bk" / "journal.bin").read_bytes()) == (header, actions, 0)
