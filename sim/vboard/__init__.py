"""The virtual board for host-tool tests: MicroPython (WebAssembly) under Node,
its REPL on a TCP port on 127.0.0.1 that the real mpremote reaches with
``socket://127.0.0.1:PORT`` (see vboard.mjs for what is emulated and why).

    with VirtualBoard(folder) as vb:       # folder: the board's flash on the host
        Board(vb.url).exec("print(1)")
        vb.save()                          # flash written to `folder` now
        vb.power_cycle()                   # stop (saving) and start again on `folder`
        vb.resets()                        # how often its watchdog has reset it
        vb.heap_grown()                    # bytes its heap grew past the Pico's (0)

The board's filesystem is loaded from `folder` at start and written back to it
on save(), on stop() and whenever a client disconnects.  Its `machine` has the
rp2 port's WDT, Timer and the WATCHDOG CTRL register on real timers, and
`vboard.run(coro, on_interrupt)` on the board stands for main.py's running app
(see vboard.mjs).

It has the Pico's heap (sim/pico.py), garbage collected after every call into
the interpreter; a heap that had to grow past it (a MemoryError on the Pico)
makes stop() raise HeapOutgrown, so every test that uses a virtual board fails
then.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from sim import pico

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("vboard.mjs")


class HeapOutgrown(AssertionError):
    """The virtual board's heap had to grow past the Pico's."""


class VirtualBoard:
    """A virtual board process; start() launches it, stop() ends it."""

    def __init__(self, folder: str | os.PathLike[str], timeout: float = 15.0) -> None:
        self.folder = Path(folder)
        self.timeout = timeout
        self.port: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The mpremote/pyserial URL of the board's REPL."""
        if self.port is None:
            raise RuntimeError("the virtual board is not running")
        return f"socket://127.0.0.1:{self.port}"

    def start(self) -> VirtualBoard:
        """Power the board up (boot.py, main.py) and wait until it listens."""
        if self._proc is not None:
            raise RuntimeError("already running")
        self.folder.mkdir(parents=True, exist_ok=True)
        self._proc = subprocess.Popen(
            [
                "node",
                str(SCRIPT),
                "--port",
                "0",
                "--fs",
                str(self.folder),
                "--heapsize",
                str(pico.HEAPSIZE),
                "--gc-heap",
                str(pico.GC_HEAP),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        line = self._readline()
        if not line.startswith("PORT "):
            self._power_off()
            raise RuntimeError(f"virtual board did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def save(self) -> None:
        """Write the board's flash to the host folder now."""
        self._command("save")
        if self._readline() != "SAVED":
            raise RuntimeError("virtual board did not save")

    def resets(self) -> int:
        """How many times the watchdog has reset the board since start()."""
        self._command("resets")
        line = self._readline()
        if not line.startswith("RESETS "):
            raise RuntimeError(f"virtual board: unexpected answer {line!r}")
        return int(line.split()[1])

    def heap_grown(self) -> int:
        """Bytes the heap has had to grow past the Pico's since start() (0)."""
        self._command("heap")
        line = self._readline()
        if not line.startswith("HEAP "):
            raise RuntimeError(f"virtual board: unexpected answer {line!r}")
        return int(line.split()[1])

    def stop(self) -> None:
        """Power off: the flash is saved to the folder, the process ends.
        HeapOutgrown if the heap had to grow past the Pico's meanwhile."""
        grown = self.heap_grown() if self._proc is not None and self._proc.poll() is None else 0
        self._power_off()
        if grown:
            raise HeapOutgrown(
                f"the virtual board's heap had to grow by {grown} bytes:"
                " on the Pico this is a MemoryError"
            )

    def _power_off(self) -> None:
        proc, self._proc = self._proc, None
        self.port = None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(b"quit\n")
                proc.stdin.flush()
            proc.wait(timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait(timeout=self.timeout)
        finally:
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    f.close()

    def power_cycle(self) -> None:
        """Stop then start again on the same flash."""
        self.stop()
        self.start()

    def __enter__(self) -> VirtualBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _command(self, cmd: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise RuntimeError("the virtual board is not running")
        proc.stdin.write(cmd.encode() + b"\n")
        proc.stdin.flush()

    def _readline(self) -> str:
        proc = self._proc
        if proc is None or proc.stdout is None:
            raise RuntimeError("the virtual board is not running")
        deadline = time.monotonic() + self.timeout
        fd = proc.stdout.fileno()
        buf = b""
        while not buf.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise RuntimeError("virtual board: no answer")
            chunk = os.read(fd, 1)
            if not chunk:
                break
            buf += chunk
        return buf.decode().strip()
