"""What a seat knows of a d-TT deal, for the search (sim/games/dtt.py's view):
the deal's actions as the seat saw them, each card it did not see named as an
unknown (a keep, the last card of a packet, a card dealt or still in a
packet, the stock), and those unknowns drawn among the cards that can be
there.  d-TT's drafts pass packets round the table, so what a seat knows is
the longest part of the game's simulator side: it lives here, beside it."""

from dicetable.games.dtt import rules as dtt
from dicetable.match.actions import (
    BID,
    DEAL,
    KEEP,
    PLAY,
    REVEAL,
    action,
    kind_of,
    seat_of,
    value_of,
)
from sim import ismcts


def _holder(x, t, draft):
    """The seat holding the packet dealt to seat x at pick t (6: the seat the
    last card goes to): draft 1 passes left (+1), draft 2 right (-1)."""
    return (x + (t - 1) * (1 if draft == 1 else -1)) % 3


class DealView:
    """One deal's actions as `seat` knows them, and how to fill in the rest.

    The unknowns are named: ("keep", draft, x, t) the card kept from the
    packet dealt to seat x at pick t, ("last", draft, x) the card left in it
    after pick 5, ("now", draft, x, i) a card in it while its draft is under
    way, ("dealt", draft, s, i) a card dealt to seat s while the deal is under
    way, ("stock", i) a card not dealt.  Each comes from a group of cards
    `seat` knows went there (the cards that left a packet between two of its
    visits) or from the pool of cards it never saw; each group is dealt by
    ismcts.deal_hidden, a card played by a seat only to that seat's hand."""

    def __init__(self, actions, seat, seen, current):
        self.actions, self.seat, self.seen = actions, seat, seen
        self.faceup = [value_of(a) for a in actions if kind_of(a) == REVEAL]
        self.keeps = {1: [], 2: []}
        self.dealt = {1: [], 2: []}
        draft = 1
        for a in actions:
            k = kind_of(a)
            if k == BID:
                draft = 2
            elif k in (DEAL, KEEP):
                (self.dealt if k == DEAL else self.keeps)[draft].append(a)
        self.bids = [a for a in actions if kind_of(a) == BID]
        plays = [a for a in actions if kind_of(a) == PLAY]
        self.owner = {value_of(a): seat_of(a) for a in plays}
        # A finished deal needs no voids: every card's seat is known from its play.
        self.forbidden = (
            ismcts.voids(plays, seat, 3, _unfollowed) if current else [set(), set(), set()]
        )
        self.groups = []  # (cards, unknowns): cards `seat` knows went to those unknowns
        self.pool = []  # unknowns whose cards `seat` never saw
        self.origin = {}  # (draft, seat dealt): its packet, as cards and unknowns
        for draft in (1, 2):
            if self._drafting(draft):
                for x in range(3):
                    self.packet(draft, x)
            else:
                self.pool += self._dealing(draft)
        known = {value_of(a) for d in (1, 2) for a in self.dealt[d] if seat_of(a) == seat}
        for cards in seen.values():
            known.update(cards if isinstance(cards, list) else [cards])
        self.unseen = [c for c in dtt.deck() if c not in known and c not in self.faceup]
        self.pool += [("stock", i) for i in range(len(self.unseen) - len(self.pool))]

    def sample(self, rng):
        """The deal's actions with the hidden cards drawn (see view)."""
        cards = {}
        for items, unknowns in self.groups + [(self.unseen, self.pool)]:
            places = [self._place(v) for v in unknowns]
            drawn = ismcts.deal_hidden(items, places, self._weight, rng)
            cards.update(zip(unknowns, drawn, strict=True))
        return self._journal(cards)

    # --- the unknowns ---------------------------------------------------------

    def _drafting(self, draft):
        return len(self.dealt[draft]) == 3 * dtt.DRAFT_CARDS

    def _dealing(self, draft):
        """The unknowns of a deal under way: the others' cards dealt so far."""
        out = []
        count = [0, 0, 0]
        for a in self.dealt[draft]:
            s = seat_of(a)
            if s != self.seat:
                out.append(("dealt", draft, s, count[s]))
                count[s] += 1
        return out

    def _now(self, draft):
        """The pick under way (1-5; 6 once the draft is over)."""
        return len(self.keeps[draft]) // 3 + 1

    def packet(self, draft, x):
        """The unknowns of the packet dealt to seat x, pick by pick: between
        two of `seat`'s visits, the cards that left it; before the first, the
        pool; after the last, the cards left then."""
        now = self._now(draft)
        gap = []
        left = None  # the packet when `seat` last held it, less its keep
        for t in range(1, min(now, 5) + 1):
            if _holder(x, t, draft) == self.seat:
                left = self._visit(draft, x, t, gap, left)
                gap = []
                if t == now:
                    return  # `seat` holds it now: nothing more is hidden
            elif t < now:
                gap.append(("keep", draft, x, t))
        if now <= 5:
            size = 6 - (now - 1) if left is None else len(left) - len(gap)
            gap += [("now", draft, x, i) for i in range(size)]
        elif _holder(x, 6, draft) == self.seat:
            last = self.seen[(draft, "last")]
            assert left is not None  # the seat held it before its last pick
            self.groups.append(([c for c in left if c != last], gap))
            return
        else:
            gap.append(("last", draft, x))
        self._close(draft, x, gap, left)

    def _visit(self, draft, x, t, gap, left):
        """`seat` held packet x at pick t: what left it since the last visit
        is a group (before the first visit: the pool, and the packet as dealt
        is those unknowns and what `seat` saw).  Returns what `seat` left in it."""
        packet = self.seen[(draft, t)]
        if left is None:
            self._close(draft, x, gap, None)
            self.origin[(draft, x)] += packet
        else:
            self.groups.append(([c for c in left if c not in packet], gap))
        mine = self._my_keep(draft, t)
        return [c for c in packet if c != mine]

    def _close(self, draft, x, gap, left):
        if left is None:
            self.pool += gap
            self.origin[(draft, x)] = list(gap)
        else:
            self.groups.append((left, gap))

    def _my_keep(self, draft, t):
        for a in self.keeps[draft][3 * (t - 1) : 3 * t]:
            if seat_of(a) == self.seat:
                return value_of(a)
        return None

    def _place(self, v):
        """Where unknown v is: a seat's hand ("h", s), a packet ("p", s), the stock."""
        if v[0] == "keep":
            return ("h", _holder(v[2], v[3], v[1]))
        if v[0] == "last":
            return ("h", _holder(v[2], 6, v[1]))
        if v[0] == "now":
            return ("p", _holder(v[2], self._now(v[1]), v[1]))
        if v[0] == "dealt":
            return ("p", v[2])
        return ("s", 0)

    def _weight(self, card, place):
        """0 where the card cannot be: a card played by one seat is in no other
        seat's hand, packet or stock; a seat that did not follow a lead holds
        no card that would have obliged it to (but those it played before)."""
        owner = self.owner.get(card)
        if owner is not None:
            return 1 if place == ("h", owner) else 0
        if place[0] == "h" and card in self.forbidden[place[1]]:
            return 0
        return 1

    # --- the journal ------------------------------------------------------------

    def _journal(self, cards):
        """The deal's actions with every other seat's cards from `cards`, and
        without the others' keeps and bids `seat` has not seen yet."""
        out = []
        dealt = {}
        keeps = {1: 0, 2: 0}
        draft = 1
        for a in self.actions:
            k, s = kind_of(a), seat_of(a)
            if k == BID:
                draft = 2
                if s != self.seat and len(self.bids) < 3:
                    continue
            elif k == DEAL and s != self.seat:
                i = dealt.get((draft, s), 0)
                dealt[(draft, s)] = i + 1
                a = action(DEAL, s, self._dealt_card(draft, s, i, cards))
            elif k == KEEP:
                keeps[draft] += 1
                pick = (keeps[draft] - 1) // 3 + 1
                if s != self.seat:
                    if pick >= self._now(draft):
                        continue  # a keep of the pick under way, not seen yet
                    x = (s - (pick - 1) * (1 if draft == 1 else -1)) % 3
                    a = action(KEEP, s, cards[("keep", draft, x, pick)])
            out.append(a)
        return out

    def _dealt_card(self, draft, s, i, cards):
        """The i-th card dealt to seat s (not `seat`) in a draft's deal."""
        if not self._drafting(draft):
            return cards[("dealt", draft, s, i)]
        v = self.origin[(draft, s)][i]
        return cards[v] if isinstance(v, tuple) else v


def _unfollowed(trick, v):
    """The cards whose holding would have obliged a seat to follow where it
    played `v` (the rules core's is_legal over a hand of `v` and that card)."""
    if dtt.suit(v) == dtt.suit(trick.items[0]):
        return ()
    return [c for c in dtt.deck() if c != v and not dtt.is_legal([v, c], 2, trick, v)]
