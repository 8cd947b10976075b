"""The table's own refusal codes, and every refusal code in words.

The engine's codes (match/actions.py) blink in red; the table's own start
above frames.APP_CODES and blink in purple.  docs/refusals.md lists them all.
"""

from micropython import const

from dicetable.match.actions import REFUSAL_NAMES

UNKNOWN_TAG = const(17)
WRONG_GAME = const(18)
TWO_TAGS_CODE = const(19)
READER_FAULT_CODE = const(20)
STORAGE_ERROR = const(21)
_APP_NAMES = const(
    (
        "unknown tag",
        "another game's tag",
        "two tags at once",
        "reader fault",
        "storage error",
    )
)


def refusal_name(code):
    """A refusal code in words."""
    if 0 <= code < len(REFUSAL_NAMES):
        return REFUSAL_NAMES[code]
    if UNKNOWN_TAG <= code <= STORAGE_ERROR:
        return _APP_NAMES[code - UNKNOWN_TAG]
    return "refused (%d)" % code


def refusal_words(line, code):
    """refusal_name() at the end of `line` (app/line.py): no heap."""
    if 0 <= code < len(REFUSAL_NAMES):
        line.add(REFUSAL_NAMES[code])
    elif UNKNOWN_TAG <= code <= STORAGE_ERROR:
        line.add(_APP_NAMES[code - UNKNOWN_TAG])
    else:
        line.add("refused (")
        line.num(code)
        line.add(")")
