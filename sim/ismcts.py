"""A strong bot: single-observer information-set Monte Carlo tree search.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE
TCIAIG 4(2), 2012), SO-ISMCTS, for the seat that decides (the observer).  Each
iteration:

1. samples a *determinization*: a whole match consistent with what the seat
   sees at the table (its own hand, every public action, the trick, the
   centre, the scores), the rest (other hands, undealt cards, dice behind a
   screen) drawn among the states consistent with that view: the game's
   the game's view (sim/games/<key>.py) says what is hidden;
2. descends the tree by UCB1 with availability counts over the actions legal
   in that determinization, at the seat's own decisions and at the other
   seats' decisions the seat sees (a card played, a die picked); the table's
   draws and the seats' own rolls and scans are chance, drawn and never
   searched; a decision the seat does not see (a Walzer pass, a d-TT keep or
   bid) is made by the game's heuristic, a model of that player;
3. adds one node, plays the rest out with the rollout policy up to the
   horizon, and backs up each seat's reward to the decisions it made.

The tree is keyed by what the observer sees: a hidden action is one edge
whatever its value (host.observe), so one node is one of the observer's
information sets.  Rewards (see `rewards`): "win" is 1 for first place,
shared on ties (1/k for k tied), the measure the bench reports; "rank" is
the place scaled to 0..1; "lead" is, before the match's end, a smooth
function of each seat's lead in points (at the end, the win).  With
`paired`, the search is flat: each of the seat's actions is played out on
the same determinization with the same random draws (common random
numbers), so their difference is measured without the noise of the deal
and the dice.  The horizon "round" stops a playout when the round
(game, deal) in progress is scored and rewards the standings then, "2" (or
more) a round later, "match" plays to the end; docs/bots.md says what was
measured and why the defaults are what they are.

Everything random comes from the rng passed, so a decision is a function of
the seat's view and the seed (with a budget in playouts; a budget in
milliseconds depends on the machine's speed).
"""

import math
import pickle
import random
import time

from dicetable.match.actions import (
    DEAL,
    OK,
    PLAY,
    ROLL,
    SEAT_SHIFT,
    TABLE,
    TABLE_BIT,
    kind_of,
    seat_of,
    value_of,
)
from dicetable.match.engine import places_of
from dicetable.rules.trick import Trick
from sim import gamehost
from sim.draws import drawer

DEFAULT_PLAYOUTS = 0  # a bare "ismcts": the game's own budget, game_playouts()
UCB_C = 0.7  # rewards are in 0..1; sqrt(2)/2, the usual constant at that scale
POLICIES = ("heuristic", "random")
REWARDS = ("win", "rank", "lead")
LEAD_SCALE = 1.0  # points: "lead" gives 0.5 to a tie, 0.27 a point behind, 0.12 two
HORIZONS = ("round", "match")
_TRIES = 50  # determinizations the engine may refuse in a row before giving up
BIAS = 1.0  # the heuristic's prior in UCB (see Search.select); 0: none
COMPLETIONS = 8  # draws of the chance that ends a round (see Search.rollout)
WORLDS = 32  # determinizations drawn per decision, then reused (Search.determinization)


def game_playouts(game):
    """The playouts a decision of a bare `ismcts` in game `game` (its key):
    its ismcts_playouts (sim/games/<key>.py), chosen by measurement
    (docs/bots.md, "What was measured": the smallest budget measured to beat
    the heuristic), else gamehost.ISMCTS_PLAYOUTS."""
    return gamehost.host(game).ismcts_playouts


def game_options(game):
    """The search options of game `game` (its key): its ismcts_options
    (sim/games/<key>.py), chosen by measurement (docs/bots.md), else none;
    choose()'s own options override them."""
    return dict(gamehost.host(game).ismcts_options)


def masked(a):
    """The tree key of an action whose value the observer does not see: its
    kind and seat only (a negative int, apart from every action word)."""
    return ~(a >> SEAT_SHIFT)


def actor(match, seat):
    """Who acts next in a search: `seat` when waited on, else the lowest seat
    waited on, else the table.  Simultaneous inputs (passes, keeps, bids,
    rolls) never see each other in the engines, so any order will do."""
    return actor_of(match.waiting(), seat, match.players)


def actor_of(mask, seat, players):
    """actor() from the waiting() mask `mask`, for a caller that has read it."""
    if mask & (1 << seat):
        return seat
    seats = mask & ((1 << players) - 1)
    if seats:
        return (seats & -seats).bit_length() - 1  # the lowest seat waited on
    return TABLE if mask & TABLE_BIT else -1


def is_chance(who, legal):
    """The table's draws, and a seat's own roll or scan of a die drawn from a
    bag: chance at a real table, never a choice to search."""
    return who == TABLE or kind_of(legal[0]) in (DEAL, ROLL)


def rewards(match, kind="win"):
    """Each seat's reward from the standings the totals give now (the match's
    own standings(), tie-breaks included; at a horizon before the end, the
    standings as if the match ended there).  "win": 1 for first place,
    shared equally on ties; "rank": 1 for first, 0 for last, a shared place
    the mean of the places it covers; "lead": at a horizon before the
    match's end, lead_rewards of the totals, at its end the win."""
    if kind == "lead" and match.waiting():
        return lead_rewards(match.totals)
    return rewards_of_places(match.standings(), kind)


def lead_rewards(totals):
    """Each seat's lead over the best of the others, d points, as
    1 / (1 + e^(-d / LEAD_SCALE)): 0.5 for a shared lead, towards 1 ahead
    and 0 behind.  Unlike first place now, it still tells a seat one point
    behind from one five behind, so a seat that cannot lead after this round
    still has something to play for (Dicefull's rounds: docs/bots.md)."""
    # The best of the others is the top total, but for the one seat holding it
    # alone: the second (a scan for each seat was a tenth of a Dicefull decision).
    top = max(totals)
    second = top
    if totals.count(top) == 1:
        second = max(x for x in totals if x != top)
    out = []
    for t in totals:
        best = second if t == top else top
        out.append(1.0 / (1.0 + math.exp(-(t - best) / LEAD_SCALE)))
    return out


def rewards_of_places(places, kind="win"):
    """Each seat's reward from its place: "rank" by the place, "win" and
    "lead" (which is the win once places are final) by first place alone."""
    n = len(places)
    out = []
    for p in places:
        tied = places.count(p)
        if kind != "rank":
            out.append(1.0 / tied if p == 1 else 0.0)
        else:
            out.append(sum(n - q for q in range(p, p + tied)) / (tied * (n - 1)))
    return out


def rounds_of(horizon):
    """The rounds a playout runs: "round" 1 (the round in progress), "2" and
    up that many, "match" 0 (to the end)."""
    if horizon == "match":
        return 0
    if horizon == "round":
        return 1
    if not str(horizon).isdigit() or int(horizon) < 1:
        raise ValueError("horizon: round, match or a number of rounds, not %r" % (horizon,))
    return int(horizon)


def clone(match):
    """An independent copy of a match.  The engines keep their state in plain
    lists, arrays and bytearrays, so a pickled copy is exact; it costs a
    fraction of folding the journal again (and of copy.deepcopy)."""
    return thaw(freeze(match))


def freeze(match):
    """A match pickled, to copy many times: thaw() makes each copy, so a
    search pickles each of its worlds once, not once a playout."""
    return pickle.dumps(match, pickle.HIGHEST_PROTOCOL)


thaw = pickle.loads  # a new match from freeze()'s bytes


def replay(match, actions):
    """A new match of `match`'s game and header with `actions` submitted;
    None when the engine refuses one (an inconsistent determinization)."""
    out = type(match)(match.players, match.options)
    for a in actions:
        if out.submit(a) != OK:
            return None
    return out


def determinize(match, seat, rng):
    """A new match consistent with what `seat` sees (its game's view), drawn
    with `rng`: its known journal and a sample of what is hidden."""
    prefix, sample = gamehost.host_of(match).view(match, seat, rng)
    out = replay(match, prefix + sample(rng))
    if out is None:
        raise RuntimeError("a determinization the engine refuses")
    return out


class Node:
    """One information set of the observer: the statistics of the decisions
    taken from it (action -> [visits, total reward of its actor,
    availability]) and the nodes that follow, by what the observer sees."""

    __slots__ = ("stats", "kids")

    def __init__(self):
        self.stats = {}
        self.kids = {}


class Search:
    """The tree of one decision of `seat` in `match`."""

    def __init__(
        self,
        match,
        seat,
        rng,
        policy="heuristic",
        reward="win",
        c=UCB_C,
        horizon="round",
        completions=COMPLETIONS,
        bias=BIAS,
        worlds=WORLDS,
        paired=False,
    ):
        gamehost.check(match.GAME, "ismcts")  # a part missing: one line, CannotPlay
        self.host = gamehost.host_of(match)
        self.seat = seat
        self.rng = rng
        self.policy = policy
        self.reward = reward
        self.c = c
        self.rounds = rounds_of(horizon)
        self.completions = completions
        self.bias = bias
        self.world_count = max(1, worlds)
        self.paired = bool(paired)
        self.hidden = self.host.hidden_decisions
        self.uniform_draws = self.host.uniform_draws
        self.only_chance_left = self.host.only_chance_left
        prefix, self.sample = self.host.view(match, seat, rng)
        base = replay(match, prefix)
        if base is None:
            raise RuntimeError("the view of seat %d replays with a refusal" % seat)
        self.base = freeze(base)
        self.root = Node()
        self.playouts = 0
        self.worlds = []  # the determinizations drawn so far, frozen

    def run(self, playouts=0, ms=0):
        """Iterate until `playouts` playouts, or `ms` milliseconds, are spent
        (at least one playout)."""
        deadline = time.perf_counter() + ms / 1000.0 if ms else 0.0
        while True:
            if self.paired:
                self.iterate_paired()
            else:
                self.iterate()
            if playouts and self.playouts >= playouts:
                return
            if deadline and time.perf_counter() >= deadline:
                return
            if not playouts and not deadline:
                return

    def best(self, legal):
        """The most visited of the seat's legal actions (then the best mean,
        then the first listed): the usual robust choice; with `paired`, the
        best mean."""
        stats = self.root.stats

        def key(a):
            s = stats.get(a)
            if s is None or not s[0]:
                return (0, 0.0)
            if self.paired:  # every action has as many playouts: the best mean
                return (s[1] / s[0], s[0])
            return (s[0], s[1] / s[0])

        best = legal[0]
        for a in legal[1:]:
            if key(a) > key(best):
                best = a
        return best

    # --- one iteration ----------------------------------------------------------

    def determinization(self):
        """A match consistent with the seat's view, to play on, frozen (thaw
        makes each playout its copy).  The first `worlds` are drawn afresh
        (host.view's sample, every action checked by the engine, a refused
        one drawn again); later iterations play on a copy of one of them,
        drawn uniformly: the same distribution of hidden states, at the cost
        of a copy instead of a replay of the round."""
        if len(self.worlds) >= self.world_count:
            return self.worlds[self.rng.randrange(len(self.worlds))]
        for _ in range(_TRIES):
            m = thaw(self.base)
            if all(m.submit(a) == OK for a in self.sample(self.rng)):
                self.worlds.append(freeze(m))
                return self.worlds[-1]
        raise RuntimeError("no consistent determinization in %d tries" % _TRIES)

    def iterate(self):
        m = thaw(self.determinization())
        start = len(m.history)
        path = self.descend(m, start)
        r = self.rollout(m, start)
        for node, a, who in path:
            s = node.stats[a]
            s[0] += 1
            s[1] += r[who]
        self.playouts += 1

    def iterate_paired(self):
        """One determinization, every action of the seat played out on it
        with the same seed for the rollout's draws (each a playout): the
        actions are compared on the same hidden hands, the same chance and
        the same heuristic choices wherever their paths agree, so the noise
        common to all of them cancels (common random numbers).  No tree:
        after the seat's action every seat plays the rollout policy."""
        frozen = self.determinization()
        w = thaw(frozen)
        start = len(w.history)
        seed = self.rng.getrandbits(32)
        outer = self.rng
        stats = self.root.stats
        for a in w.legal_actions(self.seat):
            m = thaw(frozen)
            m.take(a)
            self.rng = random.Random(seed)
            r = self.rollout(m, start)
            s = stats.get(a)
            if s is None:
                s = stats[a] = [0, 0.0, 0]
            s[0] += 1
            s[1] += r[self.seat]
            self.playouts += 1
        self.rng = outer

    def descend(self, m, start):
        """Selection and expansion: follow the tree until a new node is made
        (or the playout ends); return the searched decisions taken."""
        node = self.root
        path = []
        while not self.stopped(m, start) and not self.chance_tail(m, start):
            who = actor(m, self.seat)
            if who == TABLE:
                a, new = m.random_action(TABLE, drawer(self.rng)), False
            else:
                legal = m.legal_actions(who)
                if self.searched(who, legal):
                    a, new = self.select(m, who, node, legal)
                    path.append((node, a, who))
                else:
                    a, new = self.host.heuristic(m, who, legal, self.rng), False
            m.take(a)
            key = self.host.observe(m, self.seat, a)
            child = node.kids.get(key)
            if child is None:
                child = node.kids[key] = Node()
                new = True
            node = child
            if new:
                break
        return path

    def searched(self, who, legal):
        """A decision worth a tree node: a seat's real choice that the
        observer sees (its own, or another seat's public one)."""
        if len(legal) < 2 or is_chance(who, legal):
            return False
        return who == self.seat or kind_of(legal[0]) not in self.hidden

    def select(self, m, who, node, legal):
        """UCB1 with availability counts and a progressive bias towards the
        heuristic's choice (`bias` / (visits + 1): a prior that fades as the
        action is tried, so a small budget starts from the heuristic's play
        and a large one is free of it); an untried action first, the
        heuristic's before the others.  Returns the action and whether it was
        new here."""
        stats = node.stats
        hint = self.host.heuristic(m, who, legal, self.rng) if self.bias else None
        untried = []
        for a in legal:
            s = stats.get(a)
            if s is None:
                untried.append(a)
            else:
                s[2] += 1
        if untried:
            a = hint if hint in untried else untried[self.rng.randrange(len(untried))]
            stats[a] = [0, 0.0, 1]
            return a, True
        c = self.c
        best, value = legal[0], -1.0
        for a in legal:
            v, total, avail = stats[a]
            u = total / v + c * math.sqrt(math.log(avail) / v)
            if a == hint:
                u += self.bias / (v + 1)
            if u > value:
                best, value = a, u
        return best, False

    def rollout(self, m, start):
        """Play `m` out to the horizon with the rollout policy; each seat's
        reward.  When nothing but chance is left before the round is scored
        (the score dice, the challenge and the rolls: host.only_chance_left),
        the reward is the mean over that chance (the game's own list of
        outcomes, host.chance_outcomes, or `completions` plays of it through
        the engine), the decisions' value without the noise of one throw."""
        if self.play(m, self.end(start), self.last(start)):
            return self.chance_mean(m, start)
        return rewards(m, self.reward)

    def end(self, start):
        """The length of history at which a playout from `start` stops (the
        horizon; "match": never, the match's end stops it)."""
        return start + self.rounds if self.rounds else 1 << 30

    def last(self, start):
        """The length of history in the horizon's last round, where a playout
        from `start` stops once nothing but chance is left and takes the mean
        over it; -1 when it never does ("match", or fewer than 2 completions)."""
        return self.end(start) - 1 if self.rounds and self.completions >= 2 else -1

    def chance_tail(self, m, start):
        """Is nothing but chance left before the horizon (then the tree stops
        and the reward is a mean over its draws)?"""
        return len(m.history) == self.last(start) and self.only_chance_left(m)

    def chance_mean(self, m, start):
        outcomes = self.host.chance_outcomes
        if outcomes is not None:
            # The game lists equally likely totals at the round's end.  A tie
            # left for a roll-off is decided by a fair draw, so a shared
            # place is the reward's expectation over it.
            total = [0.0] * m.players
            draws = outcomes(m, self.rng)
            lead = self.reward == "lead" and not self.host.last_round(m)
            # Outcomes repeat (a game's points are a few values a seat), and
            # their rewards are a function of the totals: each worked out once.
            known = {}
            for totals in draws:
                key = tuple(totals)
                rs = known.get(key)
                if rs is None:
                    if lead:
                        rs = lead_rewards(totals)
                    else:
                        rs = rewards_of_places(places_of(totals), self.reward)
                    known[key] = rs
                total = [t + r for t, r in zip(total, rs, strict=True)]
            return [t / len(draws) for t in total]
        total = [0.0] * m.players
        end = self.end(start)
        for i in range(self.completions):
            c = m if i == self.completions - 1 else clone(m)
            self.play(c, end, -1)
            total = [t + r for t, r in zip(total, rewards(c, self.reward), strict=True)]
        return [t / self.completions for t in total]

    def play(self, m, end, last):
        """Actions of the rollout policy (chance: drawn) until `m` waits for
        nobody or its history reaches `end`; True, instead, once its history
        is `last` long and nothing but chance is left (host.only_chance_left).
        One loop reading waiting() once an action: a playout is thousands of
        actions a decision, and the loop's overhead a good part of them."""
        seat = self.seat
        players = m.players
        rng = self.rng
        draw = drawer(rng)
        heuristic = self.host.heuristic
        only_chance_left = self.only_chance_left
        uniform_draws = self.uniform_draws
        randomly = self.policy == "random"
        while True:
            mask = m.waiting()
            if not mask:
                return False
            done = len(m.history)
            if done >= end:
                return False
            if done == last and only_chance_left(m):
                return True
            who = actor_of(mask, seat, players)
            if who == TABLE:
                # The engine draws the table's shuffle or roll without listing
                # every card or face (the listing was most of a DTwww playout).
                m.take(m.random_action(TABLE, draw))
                continue
            if uniform_draws:
                a = m.random_action(who, draw)
                if kind_of(a) in (DEAL, ROLL):
                    m.take(a)
                    continue
            legal = m.legal_actions(who)
            if len(legal) == 1:
                a = legal[0]
            elif randomly and not is_chance(who, legal):
                a = legal[draw(len(legal))]
            else:
                a = heuristic(m, who, legal, rng)
            m.take(a)

    def stopped(self, m, start):
        return m.waiting() == 0 or len(m.history) >= self.end(start)


def choose(match, seat, rng, playouts=0, ms=0, **options):
    """The ISMCTS bot's action for `seat` (one of the seats waited on).  A
    budget of `playouts` playouts, or of `ms` milliseconds, or the game's
    game_playouts(); `options`: Search's (policy, reward, c, horizon,
    completions, bias, worlds, paired), over the game's game_options().
    gamehost.CannotPlay (one line) for a game that lacks a part
    the search needs."""
    gamehost.check(match.GAME, "ismcts")
    legal = match.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if is_chance(seat, legal):
        return gamehost.host_of(match).heuristic(match, seat, legal, rng)
    options = {**game_options(match.GAME), **options}
    search = Search(match, seat, random.Random(rng.getrandbits(64)), **options)
    if not playouts and not ms:
        playouts = game_playouts(match.GAME)
    search.run(playouts, ms)
    return search.best(legal)


# --- sampling what a seat cannot see ---------------------------------------------


def voids(actions, seat, n, shown):
    """Per seat of `n`, the items it showed it does not hold: at each PLAY of
    another seat to a trick under way, shown(trick, v) lists the items whose
    holding would have made playing `v` there illegal (the game's rules core
    says which): what the games' weights for deal_hidden() read."""
    forbidden = [set() for _ in range(n)]
    trick = Trick(n)
    for a in actions:
        if kind_of(a) != PLAY:
            continue
        s, v = seat_of(a), value_of(a)
        if s != seat and trick.count:
            forbidden[s].update(shown(trick, v))
        trick.add(s, v)
        if trick.count == n:
            trick.clear()
    return forbidden


def deal_hidden(items, slots, weight, rng):
    """Deal `items` one to each of `slots` (equal lengths): slots[i] names
    where slot i is (a seat's hand, the stock...); weight(item, place) is how
    many hidden states put `item` there (0: none, as when a seat showed it
    cannot hold it).  Returns the items in slot order, drawn with probability
    proportional to the product of the weights: exactly, by a shuffle, when
    each item weighs the same in every place (nothing seen rules a place
    out), otherwise a weighted sequential deal (most
    constrained item first) refined by Metropolis swaps, whose stationary
    distribution is that product.  ValueError when no deal is possible."""
    if len(items) != len(slots):
        raise ValueError("%d items for %d slots" % (len(items), len(slots)))
    places = sorted(set(slots), key=repr)
    table = [[weight(item, p) for p in places] for item in items]
    if all(row[0] and row.count(row[0]) == len(row) for row in table):
        # Each item weighs the same wherever it goes: every deal weighs the
        # same product, so a shuffle draws exactly.
        order = list(items)
        rng.shuffle(order)
        return order
    where = _weighted_deal(table, [slots.count(p) for p in places], rng)
    _swaps(table, where, rng)
    return _to_slots(items, where, places, slots, rng)


def _weighted_deal(table, capacity, rng):
    """A place index per item, each item drawn in proportion to the place's
    room left times its weight, the most constrained items first."""
    order = list(range(len(table)))
    rng.shuffle(order)
    order.sort(key=lambda i: sum(1 for w in table[i] if w))
    for _ in range(_TRIES):
        room = list(capacity)
        where = [0] * len(table)
        if _deal_in_order(table, order, room, where, rng):
            return where
    raise ValueError("no deal of the hidden items fits what was seen")


def _deal_in_order(table, order, room, where, rng):
    for i in order:
        odds = [room[p] * table[i][p] for p in range(len(room))]
        total = sum(odds)
        if not total:
            return False
        where[i] = _pick(odds, rng.random() * total)
        room[where[i]] -= 1
    return True


def _pick(odds, x):
    """The index whose share of the odds holds x (0 <= x < their sum)."""
    last = 0
    for p, w in enumerate(odds):
        if w:
            if x < w:
                return p
            x -= w
            last = p
    return last  # x at the sum by rounding: the last place with odds


def _swaps(table, where, rng):
    """Metropolis swaps of two items' places, accepted with the ratio of the
    weights, 8 tries per item."""
    n = len(where)
    if n < 2:
        return
    draw = drawer(rng)  # randrange's draws without its checks: 8,000 a DTwww decision
    for _ in range(8 * n):
        i = draw(n)
        j = draw(n)
        pi, pj = where[i], where[j]
        if pi == pj:
            continue
        new = table[i][pj] * table[j][pi]
        if new and rng.random() * table[i][pi] * table[j][pj] < new:
            where[i], where[j] = pj, pi


def _to_slots(items, where, places, slots, rng):
    """The items in slot order: each place's items shuffled over its slots."""
    by_place = [[] for _ in places]
    for i, p in enumerate(where):
        by_place[p].append(items[i])
    for group in by_place:
        rng.shuffle(group)
    index = {p: k for k, p in enumerate(places)}
    return [by_place[index[s]].pop() for s in slots]
