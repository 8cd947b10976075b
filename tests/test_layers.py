"""Imports point inward only (docs/architecture.md, "Layers").

The checkout's packages, inner to outer: the board's code (firmware/), the
host-side models both the simulator and the tools use, the simulator (sim),
the maker's tools (host_tools), the tools and benches (tools/); the tests
stand outside them all.  Inside the board's portable package, the rules core
(4) <- the match engines and the registry (3) <- the table app (2), and the
package imports nothing of the board's drivers.  Every import the code names
(at its top or inside a function) is read here; one pointing outward fails
with its file, line and name."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Top-level names by ring, inner first (cpython/micropython.py stands in for
# MicroPython's own module on CPython).
RINGS = {
    **dict.fromkeys(
        ("dicetable", "hal", "pins", "table_config", "maintenance", "boot", "main", "micropython"),
        0,
    ),
    "hardware": 1,
    "flashmodel": 1,
    "sim": 2,
    "host_tools": 3,
    "tools": 4,
}
FOLDERS = {"firmware": 0, "cpython": 0, "hardware": 1, "flashmodel": 1, "sim": 2, "host_tools": 3}
TESTS = {p.stem for p in (ROOT / "tests").glob("*.py")} | {"cases", "toy_game"}


def portable_layer(name):
    """The layer of a module of dicetable (4 rules core, 3 match engine and
    registry, 2 table app), or None outside it."""
    parts = name.split(".")
    if parts[0] != "dicetable":
        return None
    if len(parts) == 1 or parts[1] == "app":
        return 2
    if parts[1] == "rules":
        return 4
    if parts[1] == "games" and len(parts) > 3:
        if parts[3].endswith("_rules"):  # a rules core split by concern
            return 4
        return {"rules": 4, "data": 4, "table": 2}.get(parts[3], 3)
    return 3


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] in ("firmware", "cpython"):
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def code():
    """(path, module name, ring) of every module of the checkout but the tests."""
    for folder, ring in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, module_name(path), ring
    for path in sorted((ROOT / "tools").rglob("*.py")):
        yield path, module_name(path), RINGS["tools"]


def imports(source):
    """(line, imported name) of every absolute import in the source, including
    each name taken `from` a package (it may be a module)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, node.module + "." + alias.name


def outward(source, file, me, ring):
    """Each import of `source` (the module `me` in `file`, of ring `ring`) that
    points outward, in one line (one a statement)."""
    said = set()
    for line, name in imports(source):
        why = _why(name, me, ring)
        if why is not None and line not in said:
            said.add(line)
            yield ("%s:%d imports %s %s" % (file, line, name, why)).rstrip()


def _why(name, me, ring):
    """Why `me` (of ring `ring`) may not import `name`, or None."""
    top = name.split(".")[0]
    if top in TESTS:
        return "(a test module)"
    if RINGS.get(top, -1) > ring:
        return ""
    driver = RINGS.get(top) == 0 and top not in ("dicetable", "micropython")
    if me.startswith("dicetable") and driver:
        return "(the portable package imports no driver)"
    mine, theirs = portable_layer(me), portable_layer(name)
    if mine is not None and theirs is not None and theirs < mine:
        return "(layer %d imports layer %d)" % (mine, theirs)
    return None


def test_every_import_points_inward():
    found = [
        line
        for path, me, ring in code()
        for line in outward(path.read_text(), path.relative_to(ROOT), me, ring)
    ]
    assert found == []


@pytest.mark.parametrize(
    "source, file, why",
    [
        ("from sim import ismcts\n", "firmware/dicetable/games/x/match.py", ""),
        (
            "from dicetable.app import frames\n",
            "firmware/dicetable/match/engine.py",
            "layer 3 imports layer 2",
        ),
        (
            "from dicetable.games.dtt import match\n",
            "firmware/dicetable/games/dtt/rules.py",
            "layer 4",
        ),
        (
            "from dicetable.games.dicefull import match\n",
            "firmware/dicetable/games/dicefull/scoring_rules.py",
            "layer 4",
        ),
        ("import hal.journal\n", "firmware/dicetable/app/play.py", "no driver"),
        ("from host_tools import board\n", "sim/web/mirror.py", ""),
        ("import every_game\n", "tools/bench/bench_heap.py", "a test module"),
    ],
)
def test_an_import_pointing_outward_is_found(source, file, why):
    # The checker itself, on one import written where the rule forbids it.
    ring = next(r for folder, r in {**FOLDERS, "tools": 4}.items() if file.startswith(folder))
    found = list(outward(source, file, module_name(ROOT / file), ring))
    assert len(found) == 1 and found[0].startswith(file + ":1 imports ") and why in found[0]
