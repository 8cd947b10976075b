"""Run Python source under real MicroPython (the WebAssembly build, under Node)."""

import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "mpy_wasm.mjs"


class MicroPythonError(AssertionError):
    pass


def run(source, heap_kb=1024, timeout=300):
    """Return MicroPython's stdout for `source`; raise with its traceback on failure."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
        path = f.name
    try:
        proc = subprocess.run(
            ["node", str(RUNNER), path, str(heap_kb)],
            capture_output=True, text=True, timeout=timeout, cwd=ROOT,
        )
    finally:
        pathlib.Path(path).unlink()
    if proc.returncode != 0:
        raise MicroPythonError(
            "MicroPython failed (exit %d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout
