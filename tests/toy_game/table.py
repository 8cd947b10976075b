"""High card at the table: names and views."""

from dicetable.app import frames as fr
from dicetable.match.actions import kind_of, value_of

HAS_TRICKS = True
HAS_PASS = False
identity = None


def all_items():
    return list(range(1, 10))


def item_name(v, shown):
    return "card %d" % v


def value_words(kind, v):
    return None


def item_view(v):
    return v, fr.WHITE


def entry_view(m, a):
    return value_of(a), fr.PROMPTS[kind_of(a)]


def ring_view(m):
    return None


def deal_progress(m, seat):
    return m.hand_n[seat], 3


def table_entry_seat(m):
    return -1


def meant_value(m, kind, ident):
    return ident
