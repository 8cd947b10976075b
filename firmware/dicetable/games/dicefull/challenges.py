"""Dicefull: a challenge set read from a text file (docs/designers.md, "Your
own challenge set"; an example: docs/examples/dicefull-challenges.txt).

One challenge a line, written as the rows of data.CHALLENGES are:

    family, test, k, v, vp        # a comment

family and test by their names in data.py, k and v as whole numbers in
tenths (R7) or, for v of the COUNT tests, a face name or wildcard (BLANK,
RED, ANY_NUMBER, ...), vp a whole number.  A row may keep the brackets and
the trailing comma it has in data.py.  `#` starts a comment; blank lines are
skipped.

read() checks every row for what the rules core needs of it, and that no
challenge is in the set twice (the same test, k and v, however written:
a game reveals each challenge once), and raises ValueError with one line,
'NAME:LINE: what is wrong (what would be right)', at the first problem;
nothing is changed until a whole file has been read.
use() then puts the rows in place of the set in use (data.CHALLENGES, the
list the core, the engine and the transcripts read) and records its word
(data.SET_WORD), which the journal keeps so that a match never resumes with
another set.

The board imports this module only to load() a file and forgets it after
(table.py's prepare()): a table without a file pays nothing for it.  The file is read 32
bytes at a time into one line buffer and parsed in place, so a line
allocates nothing but its row (a comment, nothing at all); only a refusal
makes strings.  A row is compared with the rows read before it (at most
40), and the line of each is kept in a list of small ints to name it.
"""

from micropython import const

from dicetable.games.dicefull import data as d
from dicetable.match.engine import LONGEST

# data.py's names, as bytes: a line is matched in place, never decoded.
FAMILIES = (b"COMPARE", b"HIGH_LOW", b"SPECIAL", b"FACES", b"TOTALS")  # numbers 0-4
TESTS = (
    b"MOST_TOTAL",
    b"LEAST_TOTAL",
    b"MOST_SINGLE",
    b"LEAST_SINGLE",
    b"CLOSEST_TOTAL",
    b"HIGH_AT_LEAST",
    b"LOW_AT_MOST",
    b"ALL_AT_LEAST",
    b"ALL_AT_MOST",
    b"TOTAL_AT_LEAST",
    b"TOTAL_AT_MOST",
    b"TOTAL_EXACTLY",
    b"TOTAL_MULTIPLE",
    b"SAME_AT_LEAST",
    b"ALL_DIFFERENT",
    b"COUNT_AT_LEAST",
    b"COUNT_EXACTLY",
)  # numbers 0-16
FACE_NAMES = (
    b"BLANK",
    b"PLUS",
    b"MINUS",
    b"RED",
    b"BLACK",
    b"ANY_NUMBER",
    b"ANY_COLOUR",
    b"NO_VALUE",
)
FACES = (d.BLANK, d.PLUS, d.MINUS, d.RED, d.BLACK, d.ANY_NUMBER, d.ANY_COLOUR, d.NO_VALUE)

# Fewest rows: every length the table takes (1 to LONGEST rounds, one
# challenge each, none twice) has its challenges.  Most: a number the
# centre ring shows in tens and ones.
MIN_ROWS = LONGEST
MAX_ROWS = const(40)
MAX_LINE = const(120)  # bytes, comment included
MAX_VP = const(99)
MAX_NUMBER = const(99999)  # tenths: a total of 16 results of 1,000 each (|k|)
MAX_COUNT = const(16)  # results one roll may hold (rules.MAX_RESULTS)

# What k and v of each test may be: one digit per test, in test order.
_ZERO = const(0)  # unused by the test
_NUMBER = const(1)
_POSITIVE = const(2)
_COUNT = const(3)  # 1 to MAX_COUNT
_COUNT0 = const(4)  # 0 to MAX_COUNT
_FACE = const(5)  # a number below SYMBOL, or one of FACE_NAMES
_K_RULE = b"00001111111123334"
_V_RULE = b"00000004400000055"
_RIGHT = (
    "0 (the test does not read it)",
    "a whole number of tenths, -99999 to 99999 (15 is 1.5)",
    "a whole number of tenths, 1 to 99999 (15 is 1.5; a multiple of 0 is none)",
    "a count, 1 to 16 (a roll holds at most 16 results)",
    "a count, 0 to 16 (a roll holds at most 16 results)",
    "a number of tenths below 10000 or a face: ",
)
_TWICE = (
    "the same challenge as line %d: the same test, k and v"
    " (a set holds each challenge once, whatever its family and vp)"
)
_FIELDS = "family, test, k, v, vp, e.g. TOTALS, TOTAL_AT_LEAST, 300, 0, 2"
_HASH = const(35)  # '#'
_COMMA = const(44)
_NEWLINE = const(10)


def read(f, name):
    """The rows of the set in the open binary file `f` (named `name` in the
    messages): a list of (family, test, k, v, vp) tuples.  ValueError with
    one line at the first problem."""
    rows = []
    lines = []  # the line of each row, to name it when another row repeats it
    line = bytearray(MAX_LINE)
    chunk = bytearray(32)
    n = 0  # bytes of the line so far
    number = 1
    got = 1
    while got or n:
        got = f.readinto(chunk)
        i = 0
        while i < got or (not got and n):
            b = chunk[i] if got else _NEWLINE  # the last line, without its end
            i += 1
            if b == _NEWLINE:
                _row(line, n, name, number, rows, lines)
                n = 0
                number += 1
            elif n == MAX_LINE:
                _fail(name, number, "a line over %d bytes (one challenge a line)" % MAX_LINE)
            else:
                line[n] = b
                n += 1
    if len(rows) < MIN_ROWS:
        raise ValueError(
            "%s: %d challenges, too few (at least %d: the longest game takes %d, none twice)"
            % (name, len(rows), MIN_ROWS, MIN_ROWS)
        )
    return rows


def _fail(name, number, message):
    raise ValueError("%s:%d: %s" % (name, number, message))


def _text(line, a, b):
    # A field as a message quotes it.
    try:
        return repr(bytes(line[a:b]).decode())
    except UnicodeError:
        return repr(bytes(line[a:b]))


def _names(names):
    return b", ".join(names).decode()


def _trim(line, a, b):
    # (a, b) without the blanks (space, tab, CR) at either end.
    while a < b and _blank(line[a]):
        a += 1
    while b > a and _blank(line[b - 1]):
        b -= 1
    return a, b


def _blank(c):
    return c == 32 or c == 9 or c == 13


def _span(line, n):
    # (a, b): where the row of a line of n bytes is (a == b: none), without
    # its comment, blanks, and the brackets and comma a row of data.py has.
    end = 0
    while end < n and line[end] != _HASH:
        end += 1
    a, b = _trim(line, 0, end)
    if b > a and line[b - 1] == _COMMA:
        a, b = _trim(line, a, b - 1)
    if b - a > 1 and line[a] == 40 and line[b - 1] == 41:  # '(' and ')'
        a += 1
        b -= 1
    return a, b


def _row(line, n, name, number, rows, lines):
    # One line: nothing, a comment, or a row appended to rows.
    a, b = _span(line, n)
    if a == b:
        return
    fields = 1
    for i in range(a, b):
        fields += line[i] == _COMMA
    if fields != 5:
        _fail(
            name,
            number,
            "%d field%s, not 5 (%s)" % (fields, "" if fields == 1 else "s", _FIELDS),
        )
    if len(rows) == MAX_ROWS:
        _fail(name, number, "a challenge over the %d a set may hold" % MAX_ROWS)
    row = [0, 0, 0, 0, 0]
    for k in range(5):
        e = a
        while e < b and line[e] != _COMMA:
            e += 1
        fa, fb = _trim(line, a, e)
        why = _field(line, fa, fb, k, row)
        if why is not None:
            _fail(name, number, why)
        a = e + 1
    for i in range(len(rows)):
        if _same(rows[i], row):
            _fail(name, number, _TWICE % lines[i])
    rows.append(tuple(row))
    lines.append(number)


def _same(r, row):
    # The same challenge: the same test, k and v (family and vp aside).
    # ALL_AT_LEAST's and ALL_AT_MOST's v of 0 is 1: at least one number.
    if r[1] != row[1] or r[2] != row[2]:
        return False
    if row[1] == d.ALL_AT_LEAST or row[1] == d.ALL_AT_MOST:
        return (r[3] or 1) == (row[3] or 1)
    return r[3] == row[3]


def _field(line, a, b, k, row):
    # Field k of a row, line[a:b], into row[k]; None, or what is wrong with it.
    if k < 2:
        names = TESTS if k else FAMILIES
        row[k] = _index(line, a, b, names)
        if row[k] < 0:
            what = "test" if k else "family"
            return "unknown %s %s (one of %s)" % (what, _text(line, a, b), _names(names))
    elif k < 4:
        row[k] = _value(line, a, b, (_K_RULE if k == 2 else _V_RULE)[row[1]] - 48)
        if row[k] is None:
            return _bad(line, a, b, k, row[1])
    else:
        row[k] = _whole(line, a, b)
        if row[k] is None or not 1 <= row[k] <= MAX_VP:
            vp = _text(line, a, b)
            return "vp %s: a whole number of victory points, 1 to %d" % (vp, MAX_VP)
    return None


def _bad(line, a, b, k, test):
    rule = (_K_RULE if k == 2 else _V_RULE)[test] - 48
    right = _RIGHT[rule] + (_names(FACE_NAMES) if rule == _FACE else "")
    return "%s %s for %s: it takes %s" % (
        "k" if k == 2 else "v",
        _text(line, a, b),
        TESTS[test].decode(),
        right,
    )


def _index(line, a, b, names):
    # The number of the name line[a:b] among `names`, or -1.
    for i in range(len(names)):
        word = names[i]
        if len(word) == b - a:
            j = 0
            while j < b - a and line[a + j] == word[j]:
                j += 1
            if j == b - a:
                return i
    return -1


def _value(line, a, b, rule):
    # k or v by the rule of its test, or None.
    x = _whole(line, a, b)
    if x is None:
        if rule == _FACE:
            i = _index(line, a, b, FACE_NAMES)
            if i >= 0:
                return FACES[i]
        return None
    if rule == _ZERO:
        ok = x == 0
    elif rule == _NUMBER:
        ok = -MAX_NUMBER <= x <= MAX_NUMBER
    elif rule == _POSITIVE:
        ok = 0 < x <= MAX_NUMBER
    elif rule == _COUNT:
        ok = 0 < x <= MAX_COUNT
    elif rule == _COUNT0:
        ok = 0 <= x <= MAX_COUNT
    else:
        ok = -MAX_NUMBER <= x < d.SYMBOL
    return x if ok else None


def _whole(line, a, b):
    # line[a:b] as a whole number (ASCII digits, an optional '-'), or None.
    sign = 1
    if a < b and line[a] == 45:  # '-'
        sign = -1
        a += 1
    if a == b or b - a > 6:
        return None
    x = 0
    while a < b:
        c = line[a] - 48
        if not 0 <= c <= 9:
            return None
        x = x * 10 + c
        a += 1
    return sign * x


def word(rows):
    """The set's 20-bit word (1 to 0xFFFFF), which a journal keeps: a check
    code of every field of every row, in order."""
    h = len(rows)
    for row in rows:
        for x in row:
            h = (h * 33 + (x & 0xFFFF)) & 0xFFFFF
    return h or 1


def use(rows):
    """Play with `rows` (read() checked them) from the next match on."""
    d.CHALLENGES[:] = rows
    d.SET_WORD = word(rows)


def load(fs, path, say):
    """The board's door (dicefull/table.py's prepare()): use() the set in file
    `path` of filesystem `fs` and say so, or say in one line why not and
    change nothing.  (prepare() then forgets this module, its heap given back.)"""
    f = fs.open(path, "rb")
    try:
        use(read(f, path))
        say("challenges: %d from %s (set %05x)" % (len(d.CHALLENGES), path, d.SET_WORD))
    except ValueError as e:
        say("challenges not read: %s; the set in use stays" % e)
    finally:
        f.close()
