"""Each game's chains of calls fit the play's share of the Pico's C stack.

On the board every Python call nests C frames on a 7,936-byte stack
(sim/pico.py); the whole table must stay under STACK_BUDGET (6,000 B),
aiming at 5,000, and the table app and main loop take about 3,300 B before
they call into a game.  So every chain of calls from the table app's call
into a game (a method of its Match, a function of its table.py, the
engine's new_match) down to its deepest frame, C functions included, must
cost at most GAME_BUDGET on the model (sim/cstack.py), whatever the data:
tools/bench/bench_stack.py's game_chains() plays every game at its fewest
and most players through the table app and keeps the deepest chains.

Every registered game is held to it, the toy game too (its code costed
where a game's package stands on the board).  What a play can reach is bounded by
construction, not only by the matches the bench plays: no recursion in a
game's rules core (below, every game's and the toy game's), and the
frames of what a round's or a deal's scoring reaches are within the words
the board keeps on the C stack.
"""

import ast
import pathlib

import pytest
from bench_stack import game_chains
from every_game import KEYS, TOY, TOY_PACKAGE, parsed, registered, rules_sources

from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames

GAME_BUDGET = 1600  # B of C stack below the table app's call into a game
# Distinct chains each run keeps: enough that every chain over the budget is
# among them (the test says so when it is not).
KEEP = 40

# The toy game's code (tests/toy_game), costed where a game's package stands
# on the board.
TOY_CODE = [(pathlib.Path(__file__).parent / TOY_PACKAGE, "dicetable/games/%s/" % TOY)]


@pytest.fixture(scope="module")
def runs():
    """{(game, players): StackMeter} of bench_stack's runs (every game, the toy
    game registered; ~1 min)."""
    with registered(TOY):
        return game_chains(keep=KEEP, keys=KEYS, also=TOY_CODE)


def _reaches(chain, game):
    """True when a chain runs code of `game`'s package, or of no game's (the
    engine and the shared rules alone, which every game's calls go through)."""
    files = [f.file for f in chain.frames if f.file.startswith("dicetable/games/")]
    return not files or any(f.startswith("dicetable/games/%s/" % game) for f in files)


@pytest.mark.slow
@pytest.mark.parametrize("game", KEYS)
def test_every_chain_below_the_app_fits_the_games_budget(runs, game):
    played = [(key, meter) for key, meter in runs.items() if key[0] == game]
    assert played
    for (_, players), meter in played:
        # The chains over the budget are all kept, or some could be missed.
        assert len(meter.chains) < KEEP or meter.chains[-1].bytes <= GAME_BUDGET, (
            "%s, %d players: more than %d distinct chains over %d B; raise KEEP"
            % (game, players, KEEP, GAME_BUDGET)
        )
        over = [c for c in meter.chains if c.bytes > GAME_BUDGET and _reaches(c, game)]
        assert over == [], "\n".join(line for c in over for line in c.lines())


# -- bounded by construction --------------------------------------------------------


def _module_functions(tree):
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _references(tree):
    """{function: the module's functions it calls or names}: a function named
    without a call (put in a table, passed on) may be called from there, and
    naming a module-level table (a name assigned at the top level) names the
    functions in it."""
    functions = _module_functions(tree)
    tables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            named = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            for target in node.targets:
                if isinstance(target, ast.Name):
                    tables[target.id] = named & set(functions)
    graph = {}
    for name, body in functions.items():
        named = set()
        for node in ast.walk(body):
            if isinstance(node, ast.Name) and node.id != name:
                named |= tables.get(node.id, set())
                if node.id in functions:
                    named.add(node.id)
        graph[name] = named | ({name} if _calls_itself(body) else set())
    return graph


def _calls_itself(body):
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == body.name
        for node in ast.walk(body)
    )


def _cycle(graph):
    """A list of functions that reach themselves through `graph`, or []."""
    done, path = set(), []

    def visit(name):
        if name in path:
            return path[path.index(name) :] + [name]
        if name in done:
            return []
        path.append(name)
        for other in sorted(graph.get(name, ())):
            found = visit(other)
            if found:
                return found
        path.pop()
        done.add(name)
        return []

    for name in sorted(graph):
        found = visit(name)
        if found:
            return found
    return []


@pytest.mark.parametrize("game", KEYS)
def test_no_function_of_the_rules_core_reaches_itself(game):
    # Each level of a recursion is a frame more on the board's C stack, and a
    # search's depth depends on the roll (Dicefull's ± signs: one per result).
    # Every module of the core (split by concern), read as one.
    assert _cycle(_references(parsed(rules_sources(game)))) == []


def test_the_recursion_finder_sees_a_recursion_through_a_table():
    tree = ast.parse(
        "def a(x):\n    return b(x)\n\n"
        "def b(x):\n    return TABLE[0](x)\n\n"
        "TABLE = (a,)\n\n"
        "def c(x):\n    return c(x - 1)\n"
    )
    assert _cycle(_references(tree)) == ["a", "b", "a"]
    assert _cycle({"c": _references(tree)["c"]}) == ["c", "c"]


# What a round's, a game's or a deal's scoring reaches of the rules core,
# once a round, and the final standings (the match's end, and the table's
# frames at the standings): test_board_frames.py holds the per-play calls.
SCORING = {
    "dicefull": ("met_by", "award", "evaluate", "leaders", "roll_off"),
    "dtt": ("deal_scores", "standings"),
    "dtwww": ("ranks", "victory_points", "next_game_leader", "most"),
    "walzer": ("round_scores", "standings"),
    "nokosu": ("bid_of", "round_scores", "standings"),
}


@pytest.mark.parametrize("game", sorted(SCORING))
def test_the_scoring_keeps_its_frames_on_the_c_stack(game):
    # Every module of the core (split by concern: Dicefull's scoring_rules.py).
    paths = rules_sources(game)
    tree = parsed(paths)
    graph = _references(tree)
    seen, todo = set(), list(SCORING[game])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    frames = {
        name: frame_words(n_state, n_exc)
        for path in paths
        for name, n_state, n_exc in function_frames(path)
        if name in seen
    }
    assert set(SCORING[game]) <= set(frames)
    assert {name: w for name, w in frames.items() if w > C_STACK_FRAME_WORDS} == {}
    # A comprehension is a function of its own (a frame more, made at every call).
    nested = sorted(
        name
        for name, body in _module_functions(tree).items()
        if name in seen
        for node in ast.walk(body)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda))
    )
    assert nested == []
