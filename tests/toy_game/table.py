"""High card at the table: names and views."""

from dicetable.app import frames as fr
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
JOURNAL_ROOM = 32
LEGAL_ROOM = (9, 9, 4)
identity = None


def all_items():
    return list(range(1, 10))


def item_words(line, v, shown):
    line.add("card ")
    line.num(v)


def value_words(line, kind, v):
    return False


def item_view(v):
    return v, fr.WHITE


def entry_view(m, a):
    return fr.view(value_of(a), fr.PROMPTS[kind_of(a)])


def ring_view(m):
    return None


def deal_progress(m, seat):
    return fr.view(m.hand_n[seat], 3)


def table_entry_seat(m):
    return -1


def meant_value(m, kind, ident):
    return ident
