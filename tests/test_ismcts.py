"""The ISMCTS bot (sim/ismcts.py) and each game's determinization (host.view,
host.determinize): legal actions only, deterministic with a seed, blind to
what the deciding seat cannot see, and determinizations that agree with
everything the seat sees.  Positions come from heuristic matches with fixed
seeds; the whole matches and the strength check are slow."""

import math
import random

import every_game
import pytest

from dicetable import games as registry
from dicetable.games import new_match
from dicetable.match.actions import TABLE
from sim import gamehost, ismcts
from sim.play import BOTS, parse_bot, play, waiting_seats

CONFIGS = [
    (game, n)
    for game in every_game.KEYS
    for n in range(every_game.players(game)[0], every_game.players(game)[1] + 1)
]


def host(game):
    return gamehost.host(game)


def decisions(game, players, seed, every, limit):
    """Copies of a heuristic match at every `every`-th decision a seat makes
    (more than one legal action, not a roll or a scan), with that seat; at
    most `limit`.  A match too short for one at `every` gives every decision."""
    out = _decisions(game, players, seed, every, limit)
    return out or _decisions(game, players, seed, 1, limit)


def _decisions(game, players, seed, every, limit):
    rng = random.Random(seed)
    match = new_match(game, players, 0)
    out = []
    count = 0
    while not match.over() and len(out) < limit:
        seat = rng.choice(waiting_seats(match))
        legal = match.legal_actions(seat)
        if seat != TABLE and len(legal) > 1 and not ismcts.is_chance(seat, legal):
            count += 1
            if count % every == 0:
                out.append((ismcts.replay(match, match.journal), seat))
        a = rng.choice(legal) if seat == TABLE else host(game).heuristic(match, seat, legal, rng)
        assert match.submit(a) == 0
    return out


# --- the bot's name and budget ---------------------------------------------------------


@pytest.mark.parametrize(
    "name, parsed",
    [
        ("random", ("random", 0, 0)),
        ("heuristic", ("heuristic", 0, 0)),
        ("ismcts", ("ismcts", ismcts.DEFAULT_PLAYOUTS, 0)),
        ("ismcts:300", ("ismcts", 300, 0)),
        ("ismcts:50ms", ("ismcts", 0, 50)),
    ],
)
def test_a_bot_name_carries_its_budget(name, parsed):
    assert parse_bot(name) == parsed
    assert name.partition(":")[0] in BOTS


@pytest.mark.parametrize(
    "name",
    ["", "ismcts:", "ismcts:0", "ismcts:-3", "ismcts:5s", "ismcts:ms", "heuristic:300", "mcts"],
)
def test_a_bad_bot_name_is_one_line_saying_what_is_right(name):
    with pytest.raises(ValueError) as refused:
        parse_bot(name)
    message = str(refused.value)
    assert "\n" not in message and "ismcts:300" in message


# --- dealing what a seat cannot see ------------------------------------------------------


def test_deal_hidden_is_a_shuffle_when_nothing_is_known():
    items = list(range(10))
    slots = [0] * 4 + [1] * 6
    dealt = ismcts.deal_hidden(items, slots, lambda item, place: 1, random.Random(3))
    assert sorted(dealt) == items and dealt != items


def test_deal_hidden_never_puts_an_item_where_its_weight_is_zero():
    items = list(range(12))
    slots = [0] * 4 + [1] * 4 + [2] * 4

    def weight(item, place):
        return 0 if item % 3 == place else 1

    for seed in range(20):
        dealt = ismcts.deal_hidden(items, slots, weight, random.Random(seed))
        assert sorted(dealt) == items
        assert all(weight(item, place) for item, place in zip(dealt, slots, strict=True))


def test_deal_hidden_draws_in_proportion_to_the_weights():
    # Item 0 weighs 3 in place "a", 1 in "b"; item 1 weighs 1 anywhere: 0 goes to
    # "a" three times in four.
    def weight(item, place):
        return 3 if (item, place) == (0, "a") else 1

    rng = random.Random(5)
    hits = sum(ismcts.deal_hidden([0, 1], ["a", "b"], weight, rng)[0] == 0 for _ in range(4000))
    assert 2850 < hits < 3150


def test_deal_hidden_says_when_no_deal_fits():
    with pytest.raises(ValueError):
        ismcts.deal_hidden([0, 1], [0, 0], lambda item, place: item, random.Random(1))


# --- determinizations ---------------------------------------------------------------------


def public(match, seat):
    """What `seat` sees, in every game: the scores, the trick, its own hand
    and the public piles and counts (the keys each engine has)."""
    facts = {"totals": list(match.totals), "history": [list(h) for h in match.history]}
    trick = match.trick
    facts["trick"] = [(trick.seats[i], trick.items[i]) for i in range(trick.count)]
    facts["mine waited"] = bool(match.waiting() & (1 << seat))
    if not getattr(match, "open", False):
        facts["hand"] = hand(match, seat)
    for name in ("hand_n", "cards_left", "faceup", "face", "bids", "taken", "score_n"):
        value = getattr(match, name, None)
        if value is not None and name not in still_open(match):
            facts[name] = list(value)
    for name in ("phase", "turn", "leader", "round", "game", "dealer", "trump", "pick"):
        if hasattr(match, name):
            facts[name] = getattr(match, name)
    if match.GAME == "walzer":
        facts["won"] = [match.won_pile(s) for s in range(match.players)]
    if match.GAME == "nokosu":
        facts["centre"] = match.centre()
        facts["dice"] = [[i for i in match.hand(s) if i & 0x200] for s in range(match.players)]
    if match.GAME == "dicefull":
        facts["held"] = list(match.held)
    if match.GAME == "dtwww":
        facts["score dice"] = [match.score_dice(s) for s in range(match.players)]
    return facts


def hand(match, seat):
    """The items `seat` holds, sorted (d-TT: its kept cards)."""
    return sorted(gamehost.host_of(match).hand(match, seat))


def still_open(match):
    """What the other seats' simultaneous inputs not yet shown change: a
    determinization leaves those inputs out (the search makes them again),
    so the counts they change and the bids not yet shown are not compared."""
    if match.GAME == "walzer" and match.phase == 1:  # the exchange of two cards
        return ("hand_n",)
    if match.GAME == "dtt" and match.phase in (2, 5):  # the drafts
        return ("hand_n",)
    if match.GAME == "dtt" and match.phase == 3:  # the bids
        return ("bids",)
    return ()


@pytest.mark.parametrize("game, players", CONFIGS)
def test_determinizations_agree_with_everything_the_seat_sees(game, players):
    others_differ = 0
    for match, seat in decisions(game, players, seed=11, every=5, limit=6):
        for k in range(3):
            det = ismcts.determinize(match, seat, random.Random(k))
            assert type(det) is type(match)
            assert public(det, seat) == public(match, seat)
            assert det.legal_actions(seat) == match.legal_actions(seat)
            others = [s for s in range(players) if s != seat]
            others_differ += any(hand(det, s) != hand(match, s) for s in others)
    if host(game).hidden_hands:  # Dicefull hides nothing; the others hide hands
        assert others_differ


@pytest.mark.parametrize("game, players", CONFIGS)
def test_the_decision_is_blind_to_what_the_seat_cannot_see(game, players):
    # A determinization is another match that differs from the real one only in
    # what the seat cannot see: the same seed must give the same decision and
    # the same view of it.
    for match, seat in decisions(game, players, seed=12, every=7, limit=3):
        other = ismcts.determinize(match, seat, random.Random(99))
        prefix, sample = host(game).view(match, seat, random.Random(4))
        prefix2, sample2 = host(game).view(other, seat, random.Random(4))
        assert prefix == prefix2
        assert sample(random.Random(5)) == sample2(random.Random(5))
        chosen = ismcts.choose(match, seat, random.Random(6), playouts=8)
        assert ismcts.choose(other, seat, random.Random(6), playouts=8) == chosen


# --- the bot's decisions ------------------------------------------------------------------


@pytest.mark.parametrize("game, players", CONFIGS)
def test_the_bot_chooses_legal_actions_deterministically(game, players):
    for match, seat in decisions(game, players, seed=13, every=6, limit=4):
        legal = match.legal_actions(seat)
        journal = list(match.journal)
        a = ismcts.choose(match, seat, random.Random(2), playouts=6)
        assert a in legal
        assert match.journal == journal  # the match it decides for is left alone
        assert ismcts.choose(match, seat, random.Random(2), playouts=6) == a


@pytest.mark.parametrize(
    "options",
    [
        {"policy": "random"},
        {"reward": "rank"},
        {"horizon": "match"},
        {"horizon": "2"},
        {"c": 0.0},
        {"bias": 0.0},
        {"completions": 1},
        {"worlds": 1},
        {"paired": True},
        {"paired": False},
        {"reward": "lead"},
    ],
)
@pytest.mark.parametrize("game", ["walzer", "dtwww"])
def test_every_search_option_plays_legally(game, options):
    for match, seat in decisions(game, 3, seed=14, every=9, limit=2):
        assert ismcts.choose(match, seat, random.Random(1), playouts=5, **options) in (
            match.legal_actions(seat)
        )


@pytest.mark.parametrize("horizon, rounds", [("round", 1), ("match", 0), ("2", 2), (3, 3)])
def test_a_horizon_is_a_number_of_rounds(horizon, rounds):
    assert ismcts.rounds_of(horizon) == rounds


@pytest.mark.parametrize("horizon", ["0", "games", "-1", ""])
def test_a_bad_horizon_is_refused(horizon):
    with pytest.raises(ValueError):
        ismcts.rounds_of(horizon)


def test_a_budget_in_milliseconds_stops_in_time():
    match, seat = decisions("dtt", 3, seed=15, every=4, limit=1)[0]
    search = ismcts.Search(match, seat, random.Random(1))
    search.run(ms=30)
    assert search.playouts >= 1


@pytest.mark.parametrize(
    "game, players, reward, expected",
    [
        ("dtt", 3, "win", [1.0, 0.0, 0.0]),
        ("dtt", 3, "rank", [1.0, 0.5, 0.0]),
    ],
)
def test_rewards_follow_the_standings(game, players, reward, expected):
    match = new_match(game, players, 0)
    match.totals[:] = [30, 0, -30]
    assert ismcts.rewards(match, reward) == expected
    match.totals[:] = [10, 10, -20]
    shared = ismcts.rewards(match, reward)
    assert shared[0] == shared[1] and shared[2] == 0.0
    assert shared[0] == (0.5 if reward == "win" else 0.75)


def test_lead_tells_a_seat_one_point_behind_from_one_far_behind():
    match = new_match("dicefull", 3, 0)
    match.totals[:] = [5, 4, 0]
    lead = ismcts.rewards(match, "lead")
    assert lead[0] == pytest.approx(0.7311, abs=1e-4)  # one point ahead
    assert lead[1] == pytest.approx(0.2689, abs=1e-4)  # one point behind
    assert 0.0 < lead[2] < 0.01  # five behind: little, but not nothing
    assert ismcts.rewards(match, "win") == [1.0, 0.0, 0.0]  # "win" cannot tell 1 from 2
    match.totals[:] = [3, 3, 1]
    assert ismcts.rewards(match, "lead")[:2] == [0.5, 0.5]


def test_lead_measures_each_seat_against_the_best_of_the_others():
    # lead_rewards finds the best of the others from the top two totals; the
    # definition, seat by seat, must give the same floats (ties for the top
    # and a lone leader included).
    rng = random.Random(3)
    for _ in range(500):
        totals = [rng.randrange(-3, 4) for _ in range(rng.randrange(2, 6))]
        expected = []
        for s, t in enumerate(totals):
            best = max(x for o, x in enumerate(totals) if o != s)
            expected.append(1.0 / (1.0 + math.exp(-(t - best) / ismcts.LEAD_SCALE)))
        assert ismcts.lead_rewards(totals) == expected, totals


def test_lead_is_the_win_at_the_end_of_the_match():
    match = play("dicefull", 3, 0, ["heuristic"] * 3, seed=41)
    assert ismcts.rewards(match, "lead") == ismcts.rewards(match, "win")


def last_round_scoring(game, players, seed):
    """A heuristic match stopped in its last round, only chance left."""
    rng = random.Random(seed)
    match = new_match(game, players, 0)
    while not (host(game).last_round(match) and host(game).only_chance_left(match)):
        seat = rng.choice(waiting_seats(match))
        legal = match.legal_actions(seat)
        a = rng.choice(legal) if seat == TABLE else host(game).heuristic(match, seat, legal, rng)
        assert match.submit(a) == 0
    return match


@pytest.mark.parametrize("game", ["dicefull", "dtwww"])
def test_last_round_is_true_in_the_last_round_only(game):
    match = last_round_scoring(game, 3, seed=42)
    assert match.waiting() and len(match.history) >= 1
    assert not host(game).last_round(only_chance_ahead(game, 3, seed=42))


@pytest.mark.parametrize("game", ["dicefull", "dtwww"])
def test_lead_scores_the_last_round_as_the_win_and_the_others_by_the_lead(game):
    last = last_round_scoring(game, 3, seed=43)
    rewards = {}
    for kind in ("lead", "win"):
        search = ismcts.Search(last, 0, random.Random(5), reward=kind)
        rewards[kind] = search.chance_mean(ismcts.clone(last), len(last.history))
    assert rewards["lead"] == rewards["win"]
    earlier = only_chance_ahead(game, 3, seed=43)
    for kind in ("lead", "win"):
        search = ismcts.Search(earlier, 0, random.Random(5), reward=kind)
        rewards[kind] = search.chance_mean(ismcts.clone(earlier), len(earlier.history))
    assert rewards["lead"] != rewards["win"]
    assert all(0.0 < r < 1.0 for r in rewards["lead"])


@pytest.mark.parametrize("game, players", [("dtwww", 3), ("dicefull", 4), ("walzer", 3)])
def test_a_paired_search_plays_every_action_alike_and_takes_the_best_mean(game, players):
    match, seat = decisions(game, players, seed=44, every=3, limit=1)[0]
    legal = match.legal_actions(seat)
    search = ismcts.Search(match, seat, random.Random(2), paired=True)
    search.run(playouts=3 * len(legal))
    stats = search.root.stats
    assert sorted(stats) == sorted(legal)
    assert {v[0] for v in stats.values()} == {3}  # three worlds, each action in all three
    best = search.best(legal)
    assert stats[best][1] == max(v[1] for v in stats.values())


def test_the_games_own_options_apply_unless_given(monkeypatch):
    seen = []

    class Recording(ismcts.Search):
        def __init__(self, match, seat, rng, **options):
            seen.append(options)
            super().__init__(match, seat, rng, **options)

    monkeypatch.setattr(ismcts, "Search", Recording)
    for game, players in (("dtwww", 3), ("dicefull", 3), ("walzer", 3)):
        match, seat = decisions(game, players, seed=45, every=2, limit=1)[0]
        ismcts.choose(match, seat, random.Random(1), playouts=4)
        ismcts.choose(match, seat, random.Random(1), playouts=4, paired=False, reward="win")
    assert seen == [
        {"paired": True},
        {"paired": False, "reward": "win"},
        {"reward": "lead"},
        {"reward": "win", "paired": False},
        {},
        {"paired": False, "reward": "win"},
    ]


@pytest.mark.slow
@pytest.mark.parametrize("game, players", CONFIGS)
def test_whole_matches_with_an_ismcts_seat_are_legal(game, players):
    bots = ["heuristic"] * players
    bots[1 % players] = "ismcts:2"
    match = play(game, players, 0, bots, seed=21)  # play() raises on a refused action
    assert match.over()


@pytest.mark.slow
def test_a_small_budget_beats_random_clearly():
    # Fixed seeds: the same matches every run.  d-TT, 3 players: a fair share is 3
    # of 9; ten playouts a decision won 11 of 12 when this was written.
    wins = 0
    for i in range(9):
        bots = ["random"] * 3
        bots[i % 3] = "ismcts:10"
        places = play("dtt", 3, 0, bots, seed=500 + i).standings()
        wins += places[i % 3] == 1
    assert wins >= 6


def only_chance_ahead(game, players, seed):
    """A match of heuristic seats stopped, a round or more into it, where
    nothing but chance is left before the round is scored."""
    rng = random.Random(seed)
    match = new_match(game, players, 0)
    while not (match.history and host(game).only_chance_left(match)):
        seat = rng.choice(waiting_seats(match))
        legal = match.legal_actions(seat)
        a = rng.choice(legal) if seat == TABLE else host(game).heuristic(match, seat, legal, rng)
        assert match.submit(a) == 0
    return match


@pytest.mark.slow
@pytest.mark.parametrize("game", ["dicefull", "dtwww"])
def test_chance_outcomes_are_the_rounds_end_drawn_through_the_engine(game):
    # The game's list of equally likely totals (every challenge left, several
    # throws of the dice) must have the mean of the round played to its end
    # through the engine (the challenge revealed, every die rolled).
    match = only_chance_ahead(game, 3, seed=31)
    journal = list(match.journal)
    rng = random.Random(7)
    outcomes = [t for _ in range(150) for t in host(game).chance_outcomes(match, rng)]
    assert match.journal == journal
    played = []
    for _ in range(1500):
        m = ismcts.clone(match)
        start = len(m.history)
        while len(m.history) == start:
            m.take(m.random_action(ismcts.actor(m, 0), rng.randrange))
        played.append(list(m.totals))
    for s in range(3):
        mean_listed = sum(t[s] for t in outcomes) / len(outcomes)
        mean_played = sum(t[s] for t in played) / len(played)
        assert abs(mean_listed - mean_played) < 0.05, (s, mean_listed, mean_played)


def test_every_game_has_its_own_budget():
    # Chosen by measurement (docs/bots.md), in each game's sim/games/<key>.py.
    for game in registry.GAMES:
        assert isinstance(host(game).ismcts_playouts, int), game
        assert ismcts.game_playouts(game) == host(game).ismcts_playouts
    assert ismcts.game_options("dtwww") == {"paired": True}
    assert ismcts.game_options("dicefull") == {"reward": "lead"}
    assert ismcts.game_options("walzer") == {}


def test_every_game_that_lists_its_chance_says_which_round_is_last():
    for game in registry.GAMES:
        if host(game).chance_outcomes is not None:
            assert callable(host(game).last_round), game


@pytest.mark.parametrize(
    "pairs, options",
    [
        (["paired=1"], {"paired": True}),
        (["paired=0", "reward=lead"], {"paired": False, "reward": "lead"}),
        (["c=0.5", "worlds=8"], {"c": 0.5, "worlds": 8}),
        (["horizon=match", "policy=random"], {"horizon": "match", "policy": "random"}),
    ],
)
def test_bench_bots_set_takes_every_search_option(pairs, options):
    import bench_bots

    assert bench_bots.parse_options(pairs) == options
    search = ismcts.Search(new_match("dtwww", 3, 0), 0, random.Random(1), **options)
    assert search.paired is options.get("paired", False)


@pytest.mark.parametrize(
    "pair, line",
    [
        ("paired=True", "--set: paired='True' is not a value it takes (0 or 1)"),
        ("worlds=many", "--set: worlds='many' is not a value it takes (a whole number)"),
        ("speed=2", "--set: no option 'speed' (policy, reward, horizon, c, bias, completions,"),
        ("reward=points", "--set: reward='points' is not a value it takes (win, rank, lead)"),
        ("policy=smart", "--set: policy='smart' is not a value it takes (heuristic or random)"),
        ("horizon=0", "--set: horizon='0' is not a value it takes (round, match or a number"),
        ("c", "--set: c='' is not a value it takes (a number)"),
    ],
)
def test_a_bad_bench_bots_set_is_one_line(pair, line):
    import bench_bots

    with pytest.raises(SystemExit) as refused:
        bench_bots.parse_options([pair])
    assert str(refused.value).startswith(line)


@pytest.mark.parametrize(
    "argv, line",
    [
        (["--budget", "ismcts:0"], "--bot: bad budget in 'ismcts:0'"),
        (["--bot", "random"], "--bot: 'random' is not ismcts or heuristic"),
        (
            ["--bot", "heuristic", "--opponents", "heuristic"],
            "--bot heuristic: against random opponents only",
        ),
        (["--games", "chess"], "--games: no 'chess' (dtwww, walzer"),
        (["--games", "walzer", "--players", "9"], "--players: 9, which none of the games takes"),
        (["--players", "x"], "--players: 'x', not player counts"),
        (["--opponents", "human"], "--opponents: no 'human' (heuristic, random)"),
        (["--matches", "0"], "--matches: 0, not 1 or more"),
        (["--jobs", "0"], "--jobs: 0, not 1 or more"),
        (["--decisions", "-1"], "--decisions: -1, not 0 or more"),
    ],
)
def test_a_bad_bench_bots_argument_is_one_line_before_anything_runs(argv, line, capsys):
    import bench_bots

    with pytest.raises(SystemExit) as refused:
        bench_bots.main(argv)
    assert str(refused.value).startswith(line)
    assert capsys.readouterr().out == ""  # nothing printed, nothing played


def test_bench_bots_times_decisions_and_plays_the_heuristic_against_random(capsys):
    import bench_bots

    bench_bots.main(["--decisions", "2", "--games", "walzer", "--players", "3"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[-2].startswith("game      n  decisions  CPU ms")
    assert rows[-1].split()[:3] == ["walzer", "3", "2"] and float(rows[-1].split()[3]) > 0
    bench_bots.main(["--bot", "heuristic", "--games", "dtt", "--matches", "6", "--jobs", "1"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("The heuristic (heuristic) against other bots: 6 matches a row")
    assert [r.split()[:3] for r in rows[2:]] == [["dtt", "3", "random"]]
