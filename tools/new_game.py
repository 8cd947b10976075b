"""make new-game NAME=key [TITLE="Title"]: a new game of the table, made from
High card (the tests' toy game, tests/toy_game/), that plays on the virtual
table, in the simulator and on the web page, and passes the whole suite as
it is.  Then make it your game: docs/architecture.md, "Adding a game".

    python tools/new_game.py KEY [--title TITLE]

Writes (refusing, with nothing written, if any of them exists):

    firmware/dicetable/games/KEY/   __init__.py rules.py match.py table.py
    sim/games/KEY.py                its side in the simulator (GameHost)
    tests/cases/KEY.py              its conformance cases
    docs/rules/KEY.md               its rules for players (and a row in the index)
    tests/golden/KEY.txt            its golden transcript (review it)

and adds its entry at the end of firmware/dicetable/games/__init__.py.
"""

import argparse
import keyword
import pathlib
import re
import subprocess
import sys

import sim  # before dicetable: puts the board's code on sys.path
from dicetable import games as registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy_game"
PARTS = ("rules", "match", "table")
KEY = re.compile(r"^[a-z][a-z0-9]{1,11}$")
TITLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .'!-]{0,15}$")  # the menu's words: ASCII
TOY_KEY, TOY_TITLE, TOY_CLASS = "highcard", "High card", "HighCardMatch"


def refusal(key, title):
    """Why `key` and `title` cannot name a new game, or None."""
    if not TITLE.match(title):
        return "%r: a title is 1 to 16 letters, digits, spaces or - . ' !" % title
    if not KEY.match(key) or keyword.iskeyword(key):
        return "%r: a key is 2 to 12 lowercase letters or digits, a letter first" % key
    if registry.number(key) >= 0 or key == TOY_KEY:
        return "%s: a game of that key exists already" % key
    for path in targets(key):
        if path.exists():
            return "%s: exists already (nothing written)" % path.relative_to(ROOT)
    return None


def targets(key):
    return [
        ROOT / "firmware" / "dicetable" / "games" / key,
        ROOT / "sim" / "games" / (key + ".py"),
        ROOT / "tests" / "cases" / (key + ".py"),
        ROOT / "docs" / "rules" / (key + ".md"),
        ROOT / "tests" / "golden" / (key + ".txt"),
    ]


def body(path):
    """A toy game's source without its module docstring."""
    text = path.read_text()
    match = re.match(r'"""(.*?)"""\n', text, re.S)
    return text[match.end() :] if match else text


def renamed(text, key, title):
    text = text.replace("toy_game", "dicetable.games." + key)
    text = text.replace(TOY_CLASS, key.capitalize() + "Match")
    text = text.replace('"%s"' % TOY_KEY, '"%s"' % key)
    return text.replace(TOY_TITLE, title)


def source(doc, text):
    return '"""%s"""\n%s' % (doc, text)


def entry(key, title):
    """The registry entry: High card's (ENTRY in its package), written as the
    registry writes its own, under the new key and title."""
    text = (TOY / "__init__.py").read_text()
    facts = text[text.index("ENTRY = (\n") + len("ENTRY = (\n") : text.index("\n)\n")]
    facts = facts.replace(TOY_KEY, key).replace(TOY_TITLE, title)
    return "    (\n" + "".join("    " + line + "\n" for line in facts.split("\n")) + "    ),\n"


def write(key, title):
    package, host_file, cases_file, rules_page, _ = targets(key)
    package.mkdir()
    made = "made by tools/new_game.py from High card, the tests' toy game"
    (package / "__init__.py").write_text(
        source(
            "%s: %s.\n\nIts rules for players: docs/rules/%s.md; its side in the simulator:\n"
            "sim/games/%s.py; its entry: dicetable/games/__init__.py.\n" % (title, made, key, key),
            "",
        )
    )
    for part in PARTS:
        doc = "%s's %s (%s)." % (title, part, made)
        (package / (part + ".py")).write_text(
            source(doc, renamed(body(TOY / (part + ".py")), key, title))
        )
    host = renamed(body(TOY / "host.py"), key, title)
    host_file.write_text(
        source("%s in the simulator: transcript lines, a bot (%s)." % (title, made), host)
    )
    cases = renamed(body(ROOT / "tests" / "cases" / (TOY_KEY + ".py")), key, title)
    cases_file.write_text(
        source(
            "Conformance cases for %s (%s): every expected value read from the rules by hand."
            % (title, made),
            cases,
        )
    )
    rules_page.write_text(RULES_PAGE.format(key=key, title=title))
    index = ROOT / "docs" / "rules" / "README.md"
    rows = index.read_text().split("\n")
    last = max(i for i, line in enumerate(rows) if line.startswith("| ") and "/rules.py`" in line)
    rows.insert(
        last + 1,
        "| %s | 2–3 | [%s.md](%s.md) | `firmware/dicetable/games/%s/rules.py` |"
        % (title, key, key, key),
    )
    index.write_text("\n".join(rows))
    registry_file = ROOT / "firmware" / "dicetable" / "games" / "__init__.py"
    text = registry_file.read_text()
    end = text.index("]\nKEY = const(0)")
    registry_file.write_text(text[:end] + entry(key, title) + text[end:])
    # A fresh interpreter: the registry it imports holds the new entry.
    subprocess.run(
        [sys.executable, str(ROOT / "tests" / "golden_transcripts.py"), key],
        check=True,
        stdout=subprocess.DEVNULL,
    )


RULES_PAGE = """# {title}

Card trick-taking for 2 or 3 players, made from High card (the tests' toy game) by
`make new-game`: write your game's rules here, for players.

Rules core: `firmware/dicetable/games/{key}/rules.py`. Conformance cases (run on CPython and on
real MicroPython): `tests/cases/{key}.py`. Below, _Tested_ names the cases by their title and
the tests by function name.

## Play

Nine cards numbered 1 to 9. Each player scans three cards into their hand, then three tricks
are played: the highest card wins the trick and leads the next; a trick won scores 1.

_Tested: cases "higher card beats", "the follower's higher card wins"; test
`test_transcript_is_the_reviewed_one`._
"""


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="make new-game", description="A new game of the table, made from High card."
    )
    parser.add_argument("key", help="the game's key: 2-12 lowercase letters or digits")
    parser.add_argument("--title", help="the name the menu and transcripts show (default: Key)")
    args = parser.parse_args(argv)
    if sim.ROOT != ROOT:  # the registry read must be the one written
        print(
            "make new-game: error: the venv runs %s, not this checkout" % sim.ROOT, file=sys.stderr
        )
        return 2
    title = args.key.capitalize() if args.title is None else args.title
    why = refusal(args.key, title)
    if why:
        print("make new-game: error: " + why, file=sys.stderr)
        return 2
    write(args.key, title)
    for path in targets(args.key):
        print("wrote", path.relative_to(ROOT))
    print("next: make it your game (docs/architecture.md, 'Adding a game'), then make check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
