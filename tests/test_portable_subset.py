"""The rules core and the match engine stay in the portable subset the board can run.

Integer-only: no float literal, no true division, no float().  Imports only
what MicroPython has and the package itself.
"""

import ast
import pathlib

import pytest
from every_game import KEYS, TOY, match_sources

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "firmware" / "dicetable"
# The rules cores (every module of each game's core, split by concern:
# rules.py and <concern>_rules.py) and match engines (every module of each
# game's engine, split by phase), the playouts and data, and the shared modules.
CORE = sorted(PACKAGE.glob("games/*/*rules.py")) + sorted((PACKAGE / "rules").glob("*.py"))
PORTABLE = (
    CORE
    + sorted({path for key in KEYS if key != TOY for path in match_sources(key)})
    + sorted(PACKAGE.glob("games/*/playout.py"))
    + sorted(PACKAGE.glob("games/*/data.py"))
    + sorted((PACKAGE / "match").glob("*.py"))
)
PORTABLE_IMPORTS = {"array", "micropython", "dicetable"}


def float_or_division(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (float, complex)):
            yield node.lineno, "float literal %r" % node.value
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            yield node.lineno, "true division"
        elif isinstance(node, ast.Name) and node.id == "float":
            yield node.lineno, "float()"


def imported_modules(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module


def test_the_core_has_one_module_per_game():
    names = {path.parent.name if path.stem.endswith("rules") else path.stem for path in CORE}
    assert {"trick", "dtwww", "walzer", "dicefull", "dtt", "nokosu"} <= names


@pytest.mark.parametrize("path", PORTABLE, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_float_and_no_true_division(path):
    assert list(float_or_division(ast.parse(path.read_text()))) == []


@pytest.mark.parametrize("path", PORTABLE, ids=lambda p: p.parent.name + "/" + p.name)
def test_imports_only_what_micropython_has(path):
    foreign = [
        (line, name)
        for line, name in imported_modules(ast.parse(path.read_text()))
        if name.split(".")[0] not in PORTABLE_IMPORTS
    ]
    assert foreign == []


def test_the_scan_catches_what_it_forbids():
    source = "a = 1.5\nb = a / 2\nc = 3\nc /= 2\nd = float(c)\n"
    found = sorted(float_or_division(ast.parse(source)))
    assert found == [
        (1, "float literal 1.5"),
        (2, "true division"),
        (4, "true division"),
        (5, "float()"),
    ]
