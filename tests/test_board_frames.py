"""The calls made per play keep their frames on the board's C stack.

gc.mem_alloc in the WebAssembly build cannot see a frame taken from the heap
(that build has a Python stack), so this reads the frame size of every
function a per-play call can reach from the code mpy-cross compiles for the
board.  See sim/mpy_code.py.
"""

import ast
import pathlib

import pytest
from cases import game_module
from every_game import KEYS, match_class, match_sources, parsed, rules_sources

from sim.mpy_code import C_STACK_FRAME_WORDS, frame_words, function_frames, reached, source

FIRMWARE = pathlib.Path(__file__).resolve().parent.parent / "firmware"

# The functions the table calls on every play, per module: each game's in its
# conformance cases (tests/cases/<key>.py, PER_PLAY), and the shared trick's.
SHARED = {"trick": ("add", "clear")}


def per_play(module):
    return SHARED[module] if module in SHARED else game_module(module).PER_PLAY


def rules_paths(module):
    """The files of `module`'s rules core: every one of a registered game's
    (the toy game's too), else the shared module's (sim/mpy_code.source)."""
    if module in KEYS:
        return rules_sources(module)
    return [source("rules", module)]


def reachable(tree, roots):
    """Names of the module's own functions reachable by calls from `roots`."""
    bodies = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in bodies:
            continue
        seen.add(name)
        for node in ast.walk(bodies[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                todo.append(node.func.id)
    return seen


@pytest.mark.parametrize("module", KEYS + sorted(SHARED))
def test_per_play_frames_fit_on_the_c_stack(module):
    # Every module of a game's rules core (split by concern), read as one.
    paths = rules_paths(module)
    names = reachable(parsed(paths), per_play(module))
    assert set(per_play(module)) <= names
    too_big = {
        name: frame_words(n_state, n_exc)
        for path in paths
        for name, n_state, n_exc in function_frames(path)
        if name in names and frame_words(n_state, n_exc) > C_STACK_FRAME_WORDS
    }
    assert too_big == {}


def test_the_frame_reader_sees_a_big_frame(tmp_path):
    source = tmp_path / "big.py"
    source.write_text(
        "def small(a):\n    return a\n\n"
        "def big(a, b, c, d, e, f, g, h, i, j, k, l):\n    return a\n"
    )
    frames = {name: frame_words(s, e) for name, s, e in function_frames(source)}
    assert frames["small"] <= C_STACK_FRAME_WORDS < frames["big"]


# What a match does on every play: the methods of the Match interface and
# everything they call of their module (self's methods and module functions),
# and the engine's own part of a play (submit, take, the shared listing helpers,
# history's next row at a round's end).  random_action is a play's too where
# the table draws with it, and standings is listed at the match's end and at
# every frame of the standings.  (playout is not: a host's rollout, one call
# for a whole match.)
MATCH_ROOTS = ("refusal", "apply", "waiting", "legal_actions", "random_action", "standings")
ENGINE_ROOTS = (
    "submit",
    "take",
    "over",
    "malformed",
    "append_actions",
    "append_values",
    "next_row",
)


@pytest.mark.parametrize(
    "module,roots",
    [(game, MATCH_ROOTS) for game in KEYS] + [("engine", ENGINE_ROOTS)],
    ids=KEYS + ["engine"],
)
def test_every_play_of_a_match_keeps_its_frames_on_the_c_stack(module, roots):
    if module in KEYS and not hasattr(match_class(module), "random_action"):
        # No table draw: a game without random_action (High card) is never drawn for.
        roots = tuple(r for r in roots if r != "random_action")
    # Every module of a game's engine (split by phase, a layer a module).
    paths = match_sources(module) if module in KEYS else [source("match", module)]
    names, bodies = reached(parsed(paths), roots)
    assert set(roots) <= names
    too_big = {
        name: frame_words(n_state, n_exc)
        for path in paths
        for name, n_state, n_exc in function_frames(path)
        if name in names and frame_words(n_state, n_exc) > C_STACK_FRAME_WORDS
    }
    assert too_big == {}
    # A comprehension or lambda is a function of its own, which the names
    # above cannot reach (and making it allocates at every call).
    nested = sorted(
        name
        for name in names
        for node in ast.walk(bodies[name])
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda))
    )
    assert nested == []


def test_the_reach_follows_methods_of_self_and_module_functions():
    tree = ast.parse(
        "class M:\n"
        "    def refusal(self, a):\n        return self._phase(a)\n"
        "    def _phase(self, a):\n        return helper(a)\n"
        "    def unused(self):\n        return 0\n"
        "def helper(a):\n    return [x for x in a]\n"
    )
    names, _ = reached(tree, ("refusal",))
    assert names == {"refusal", "_phase", "helper"}


HAL = FIRMWARE / "hal"

# Set-up and host-tool code, not called per poll: every other function of the
# reader driver is on the path of Readers.service() and Readers.poll(), and
# every other one of the main loop and the buttons on the path of a pass.
READER_SET_UP = {"read_one", "emit", "input_pins"}  # and __init__, <listcomp>: static qstr names


@pytest.mark.parametrize("module", ["mfrc522", "readers", "mainloop", "buttons"])
def test_reader_poll_frames_fit_on_the_c_stack(module):
    frames = function_frames(HAL / (module + ".py"))
    names = {name for name, _, _ in frames}
    assert module != "readers" or {"service", "poll", "_collect"} <= names
    too_big = {
        name: frame_words(n_state, n_exc)
        for name, n_state, n_exc in frames
        if name not in READER_SET_UP
        and not name.startswith("<")
        and frame_words(n_state, n_exc) > C_STACK_FRAME_WORDS
    }
    assert too_big == {}
