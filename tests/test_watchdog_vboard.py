"""The watchdog on the virtual board (sim/vboard), driven by the real mpremote
transport: a board whose app was interrupted the way mpremote does it is never
reset while the maker works on it, and a board whose app hangs is.

The firmware is flashed with its watchdog timeout cut to TIMEOUT_MS so that
each session can outlast it quickly.  The vboard holds the maintenance button
(main.py never starts the table there), so the app is started by APP, which
does what main.py's hal.board.run() does with stand-in tasks: the real
hal.watchdog Watchdog, guard() and hand_over(), under vboard.run(), the
vboard's stand-in for asyncio.run() (see vboard.mjs).
"""

from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path

import pytest

from host_tools.backup import backup
from host_tools.board import Board
from host_tools.flash import build, flash
from sim.vboard import VirtualBoard

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
TIMEOUT_MS = 1000
OUTLAST = 2.5 * TIMEOUT_MS / 1000  # every session lasts this long, in seconds

# Two tasks and the guard; task 1 stops beating after `passes` passes (-1: never).
APP = """
import asyncio, vboard
from hal.watchdog import Watchdog
_dog = Watchdog(2)
async def _task(i, passes):
    while passes != 0:
        _dog.beat(i)
        passes -= 1
        await asyncio.sleep_ms(20)
    await asyncio.Event().wait()
async def _main():
    await asyncio.gather(_task(0, -1), _task(1, {passes}), _dog.guard())
vboard.run(_main(), _dog.hand_over)
"""

RUNNING = "import maintenance\nprint(maintenance.watchdog_running())"


def short_timeout_firmware(dest: Path) -> Path:
    shutil.copytree(FIRMWARE, dest, ignore=shutil.ignore_patterns("__pycache__"))
    m = dest / "maintenance.py"
    text = m.read_text()
    line = "WATCHDOG_MS = const(8000)"
    assert line in text
    m.write_text(text.replace(line, f"WATCHDOG_MS = const({TIMEOUT_MS})"))
    return dest


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return short_timeout_firmware(tmp_path_factory.mktemp("fw") / "firmware")


@pytest.fixture
def vboard(tmp_path, firmware):
    folder = tmp_path / "flash"
    for path, data in build(firmware).items():
        p = folder / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    vb = VirtualBoard(folder).start()
    try:
        yield vb
    finally:
        vb.stop()


def start_app(vb: VirtualBoard, passes: int = -1) -> None:
    """Start the app and leave it running; it has fed the watchdog for a while."""
    with Board(vb.url) as b:
        assert b.exec(RUNNING).strip() == "False"  # power-up: not started
        b.exec(APP.format(passes=passes))
    time.sleep(OUTLAST)


def watchdog_running(vb: VirtualBoard) -> bool:
    with Board(vb.url) as b:
        return b.exec(RUNNING).strip() == "True"


@pytest.mark.slow
def test_the_running_app_feeds_it_and_a_hung_task_resets_the_board(vboard):
    start_app(vboard)
    assert vboard.resets() == 0
    with Board(vboard.url) as b:
        b.soft_reset()  # the app stops; boot.py feeds it
        b.exec(APP.format(passes=10))  # the app again: task 1 hangs
    deadline = time.monotonic() + 10 * TIMEOUT_MS / 1000
    while vboard.resets() == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert vboard.resets() == 1
    # The board came up again like at power-up: no watchdog, the REPL answers.
    assert not watchdog_running(vboard)


@pytest.mark.slow
def test_not_reset_during_a_flash(vboard, firmware, tmp_path):
    newer = shutil.copytree(firmware, tmp_path / "newer")
    with open(newer / "hal" / "storage.py", "a") as f:
        f.write("\n_NEWER = 1\n")
    start_app(vboard)
    with Board(vboard.url) as b:
        copied = flash(b, newer, lambda i, n, p: time.sleep(OUTLAST / n))
        assert "hal/storage.mpy" in copied and copied[-1] == "main.py"
        time.sleep(OUTLAST)  # after flash's soft reset
        assert b.exec("print('still here')").strip() == "still here"
    time.sleep(OUTLAST)
    assert vboard.resets() == 0 and watchdog_running(vboard)


@pytest.mark.slow
def test_not_reset_during_a_backup(vboard, tmp_path):
    start_app(vboard)
    data = bytes(range(200))
    with Board(vboard.url) as b:
        b.write("registry.bin", data)
        backup(b, tmp_path / "bk1")
        time.sleep(OUTLAST)
        backup(b, tmp_path / "bk2")
    for bk in ("bk1", "bk2"):
        assert (tmp_path / bk / "registry.bin").read_bytes() == data
    time.sleep(OUTLAST)
    assert vboard.resets() == 0


def _session(vb: VirtualBoard, keys: list[bytes], pause: float) -> bytes:
    # A maker typing at the friendly REPL over a plain connection.
    got = b""
    with socket.create_connection(("127.0.0.1", vb.port), timeout=5) as s:
        s.settimeout(pause)
        for k in keys:
            s.sendall(k)
            end = time.monotonic() + pause
            while time.monotonic() < end:
                try:
                    got += s.recv(4096)
                except TimeoutError:
                    break
            time.sleep(max(0.0, end - time.monotonic()))
    return got


@pytest.mark.slow
def test_not_reset_during_an_interactive_repl_session(vboard):
    start_app(vboard)
    n = 12
    got = _session(vboard, [b"\x03"] + [b"print(6 * 7)\r"] * n, OUTLAST / n)
    assert b"KeyboardInterrupt" in got and got.count(b"\r\n42") == n
    assert vboard.resets() == 0


@pytest.mark.slow
def test_not_reset_after_a_soft_reset_at_the_repl(vboard):
    start_app(vboard)
    got = _session(vboard, [b"\x03", b"\x04", b""], OUTLAST)
    assert b"MPY: soft reboot" in got and b"maintenance:" in got
    time.sleep(OUTLAST)
    assert vboard.resets() == 0 and watchdog_running(vboard)
