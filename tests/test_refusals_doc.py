"""docs/refusals.md stays true to the code: every message it quotes is one the
code produces, and every test it names exists.

The page is read table by table, whatever rows its sections hold:

- a column whose header says "message" (or "says", "output", "log") holds
  messages; in a table with no such column, every backticked text that is
  not a test is taken for a message;
- a column whose header says "test" names tests: every backticked
  `test_name` (or `tests/file.py::test_name`, `tests/file.py`) must exist
  in tests/;
- a message is quoted as the code writes it, printf placeholders included
  (%s, %d, %r, %#x, %+d, %g ...; an f-string's {...} is a %s).  With the
  placeholders taken out, every piece left must occur whole in the string
  literals of one file under firmware/, sim/ or host_tools/ (adjacent
  literals joined, as Python joins them): the message is that file's, not a
  patchwork of several.  A message the code puts together from several
  strings is quoted as its parts, one backticked text each.

Every row of a table with a message column quotes at least one message (or
says "(none)" there), and every row of a table with a test column names at
least one test (`test_name[id]` names a case of a parametrized test).
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "refusals.md"
SOURCES = ("firmware", "sim", "host_tools")
SUFFIXES = (".py", ".mjs", ".js")

PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdirxXcefg%]")
TEST_REF = re.compile(r"^(?:tests/[\w/]+\.py(?:::(test_\w+))?|(test_\w+))(?:\[[^\]]*\])?$")
SPAN = re.compile(r"`([^`]+)`")
MESSAGE_HEADERS = ("message", "says", "output", "log")
NO_MESSAGE = ("(none)", "none", "—", "-")


def literals(path):
    """The text a file's messages can come from: for Python, its string
    literals (adjacent ones joined, f-strings' literal parts), one a line;
    for other sources, the file as it is."""
    text = path.read_text(errors="replace")
    if path.suffix != ".py":
        return text
    return "\n".join(
        node.value
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def source_texts():
    texts = {}
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and "node_modules" not in path.parts:
                texts[str(path.relative_to(ROOT))] = literals(path)
    return texts


def defined_tests():
    names = {}
    for path in (ROOT / "tests").glob("test_*.py"):
        for name in re.findall(r"^(?:async )?def (test_\w+)\(", path.read_text(), re.MULTILINE):
            names.setdefault(name, set()).add("tests/" + path.name)
    return names


def cells(line):
    """The cells of a markdown table row (a `|` inside backticks does not split)."""
    out, cell, quoted = [], "", False
    for ch in line.strip().strip("|"):
        if ch == "`":
            quoted = not quoted
        if ch == "|" and not quoted:
            out.append(cell.strip())
            cell = ""
        else:
            cell += ch
    out.append(cell.strip())
    return out


def tables(text):
    """(section, header cells, [(line number, row cells)]) for every table."""
    found = []
    section = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        if (
            line.startswith("|")
            and i + 1 < len(lines)
            and re.match(r"^\|[\s:|-]+\|$", lines[i + 1].strip())
        ):
            header = [h.lower() for h in cells(line)]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append((i + 1, cells(lines[i])))
                i += 1
            found.append((section, header, rows))
            continue
        i += 1
    return found


def pieces(message):
    return [p.strip() for p in PLACEHOLDER.split(message) if p.strip()]


def produced(message, texts):
    """The file whose literals hold every piece of the message, or None."""
    parts = pieces(message)
    for path, text in texts.items():
        if all(part in text for part in parts):
            return path
    return None


def quoted():
    """(where, kind, text) for every backticked text the tables quote:
    kind "message" or "test"; and the rows that quote none of a kind they need."""
    out, missing = [], []
    for section, header, rows in tables(DOC.read_text()):
        tests = [k for k, h in enumerate(header) if "test" in h]
        messages = [
            k
            for k, h in enumerate(header)
            if k not in tests and any(w in h for w in MESSAGE_HEADERS)
        ]
        for line, row in rows:
            where = "docs/refusals.md:%d (%s)" % (line, section)
            seen = {"message": 0, "test": 0}
            for k, cell in enumerate(row):
                for span in SPAN.findall(cell):
                    if TEST_REF.match(span) and (k in tests or k not in messages):
                        kind = "test"
                    elif k in messages or (not messages and k not in tests):
                        kind = "message"
                    else:
                        continue
                    seen[kind] += 1
                    out.append((where, kind, span))
            said = [row[k].strip().lower() for k in messages if k < len(row)]
            if messages and not seen["message"] and not any(c in NO_MESSAGE for c in said):
                missing.append((where, "message"))
            if tests and not seen["test"]:
                missing.append((where, "test"))
    return out, missing


def test_every_quoted_message_is_in_the_code():
    texts = source_texts()
    spans, _ = quoted()
    bad = [
        "%s: `%s`" % (where, text)
        for where, kind, text in spans
        if kind == "message" and (not pieces(text) or produced(text, texts) is None)
    ]
    assert not bad, "messages no file under %s produces:\n%s" % (SOURCES, "\n".join(bad))


def test_every_named_test_exists():
    names = defined_tests()
    spans, _ = quoted()
    bad = []
    for where, kind, text in spans:
        if kind != "test":
            continue
        m = TEST_REF.match(text)
        name = m.group(1) or m.group(2)
        path = text.split("::")[0].split("[")[0] if text.startswith("tests/") else None
        if name is None:
            if not (ROOT / path).exists():
                bad.append("%s: `%s`" % (where, text))
        elif name not in names or (path is not None and path not in names[name]):
            bad.append("%s: `%s`" % (where, text))
    assert not bad, "tests that do not exist:\n" + "\n".join(bad)


def test_every_row_quotes_a_message_and_names_a_test():
    _, missing = quoted()
    assert not missing, "\n".join("%s: no %s" % m for m in missing)


@pytest.mark.parametrize("section,least", [("The engines", 15), ("At the table", 40)])
def test_the_engine_and_table_sections_are_checked(section, least):
    """This page's own sections hold tables the checks above read."""
    spans, _ = quoted()
    messages = [s for s in spans if s[1] == "message" and section in s[0]]
    assert len(messages) >= least


def test_the_check_finds_what_is_not_in_the_code():
    texts = source_texts()
    assert (
        produced("journal needs %d seats, the table has %d: choose a new match", texts)
        == "firmware/dicetable/app/resume.py"
    )
    assert (
        produced("%s is for %d to %d players, not %d", texts)
        == "firmware/dicetable/match/engine.py"
    )
    assert produced("journal needs %d seats, the table has %d: choose an old match", texts) is None
    assert produced("journal not resumed: %s; choose a new match (now)", texts) is None
    assert produced("%s is for %d to %d players, not %d; choose a new match", texts) is None
    assert pieces("%s refused: %s%s") == ["refused:"]
    assert pieces("%s: %(name)s and {x} and %5.2f%%") == [":", "and {x} and"]
    assert pieces("%#x and %+d and %r") == ["and", "and"]
    assert cells("| a | `b | c` | d |") == ["a", "`b | c`", "d"]
