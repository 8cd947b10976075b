"""The Pico's C stack for a run of the firmware under CPython: every call costed.

On the board a chain of Python calls nests C frames on a 7,936-byte stack
(sim/pico.py has the measured rule).  Neither CPython nor the WebAssembly
build shows that limit, so StackMeter watches a run of the firmware in this
thread (sys.setprofile) and costs the chain at every call, frame by frame,
as the Pico would: each firmware frame by its call kind, read from the
caller's bytecode at the call, and its n_state and n_exc, read from the code
mpy-cross compiles for the board (sim/mpy_code.py).

    with StackMeter(firmware_dir) as meter:
        ...run the firmware...
    meter.deepest          the most bytes any moment of the run used
    meter.chains           the deepest distinct chains, deepest first: each a
                           Chain (bytes, frames: file, function, line, kind,
                           n_state, n_exc, bytes of each)
    meter.at(label)        from here on, chains are labelled so (what the run
                           was doing: "boot", "a play", ...)

What is not the firmware's Python runs in C on the board, and is costed so:

- the outermost frame: the top level of main.py or boot.py stands at
  pico.BASE_MAIN; any other firmware frame entered from outside the firmware
  (a test calling it) at `base`;
- a coroutine resumed by asyncio's scheduler: pico.ASYNCIO_TASK above the
  frame that called asyncio.run (CPython's asyncio is Python, the board's
  asyncio is measured as a whole); a module's code run by an import: a
  call from C above the importing frame;
- a function of C (a builtin, or a virtual part of sim/hw standing in for
  the board's machine, rp2 or time): c_leaf bytes above its caller, counted
  as a moment of the chain; firmware called back from there is a call from
  C.

What the leaf and import figures are, and how far the model is from the
board's measured high-water marks: docs/firmware.md, "The C stack", and
`python tools/bench/bench_stack.py`.
"""

import dis
import pathlib
import sys

from sim import pico
from sim.mpy_code import code_frames

C_LEAF = 240  # a C function's own stack below its Python caller (fitted: bench_stack)
IMPORT = 176  # an import's C between the importing frame and the module's code

_GENERATOR = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR
_COROUTINE = 0x80
_STAR = 0x04 | 0x08  # CO_VARARGS, CO_VARKEYWORDS
_CALLS = ("CALL", "PRECALL")
_LOADS_ATTRIBUTE = ("LOAD_METHOD", "LOAD_ATTR")
_RESUMES = ("FOR_ITER", "SEND", "YIELD_FROM", "GET_ITER")
_ENTRY = ("main.py", "boot.py")


class Frame:
    """One frame of a chain, as the Pico pays for it."""

    def __init__(self, file, function, line, kind, n_state, n_exc, cost):
        self.file = file
        self.function = function
        self.line = line
        self.kind = kind
        self.n_state = n_state
        self.n_exc = n_exc
        self.bytes = cost

    def __repr__(self):
        return "%s:%d %s" % (self.file, self.line, self.function)


class Chain:
    """A chain of frames at its deepest moment: `bytes` in all, the base first."""

    def __init__(self, total, frames, label):
        self.bytes = total
        self.frames = frames
        self.label = label

    def key(self):
        return tuple((f.file, f.function) for f in self.frames)

    def lines(self):
        """The chain frame by frame, outermost first, as the bench prints it."""
        out = ["%d B (%s)" % (self.bytes, self.label)]
        total = 0
        for f in self.frames:
            total += f.bytes
            shape = "" if f.n_state is None else " n_state %d" % f.n_state
            if f.n_exc:
                shape += " n_exc %d" % f.n_exc
            out.append(
                "  %5d  +%3d  %-24s %s:%d %s%s"
                % (total, f.bytes, f.kind, f.file, f.line, f.function, shape)
            )
        return out


class _Code:
    # What the meter knows of one code object: whether it is the firmware's,
    # and its compiled frame.
    __slots__ = ("firmware", "file", "n_state", "n_exc", "method", "flags", "name", "free", "top")

    def __init__(self, code, firmware, file, frame, top):
        self.firmware = firmware
        self.top = firmware and file.startswith(top)
        self.file = file
        self.n_state, self.n_exc = frame if frame is not None else (None, 0)
        # Defined in a class body (not in a function): reached through an
        # instance or the class, as a method.
        outer = code.co_qualname.rsplit(".", 1)
        self.method = len(outer) == 2 and not outer[0].endswith("<locals>")
        self.flags = code.co_flags
        self.name = code.co_name
        self.free = bool(code.co_freevars)


class StackMeter:
    """Costs the C stack of every firmware call made in this thread (see the
    module docstring); keeps the `keep` deepest distinct chains."""

    def __init__(
        self,
        firmware,
        base=pico.BASE_MAIN,
        keep=5,
        c_leaf=C_LEAF,
        import_c=IMPORT,
        top=(),
        also=(),
    ):
        """top: folders of the firmware (e.g. "dicetable/games/") whose frames,
        called from any other firmware file, stand at `base`: the chains are
        then those below that code's entry.  also: (folder, place) pairs of
        code outside the firmware costed as the firmware's at `place` (the
        tests' toy game, registered, as "dicetable/games/highcard/")."""
        self.root = str(pathlib.Path(firmware).resolve()) + "/"
        self.also = [(str(pathlib.Path(f).resolve()) + "/", place) for f, place in also]
        self.base = base
        self.top = tuple(top)
        self.keep = keep
        self.c_leaf = c_leaf
        self.import_c = import_c
        self.deepest = 0
        self.chains = []
        self.label = ""
        self._codes = {}
        self._frames = {}  # file -> {(first line, name): (n_state, n_exc)}
        self._depth = {}  # frame -> (bytes at it, kind, its own bytes)
        self._in_c = {}  # firmware frame -> the C function it is in
        self._calls = {}  # (code, offset) -> (the instruction there, the callable's loader)
        self._sites = {}  # (caller's code, offset, callee's code) -> (kind, bytes)
        self._floor = 0  # the least of the kept chains, once `keep` are kept

    def at(self, label):
        """Label the chains found from now on."""
        self.label = label

    def __enter__(self):
        sys.setprofile(self._event)
        return self

    def __exit__(self, *exc):
        sys.setprofile(None)
        self._depth.clear()
        self._in_c.clear()

    # -- the profile hook ---------------------------------------------------------

    def _event(self, frame, event, arg):
        code = frame.f_code
        info = self._codes.get(code)
        if info is None:
            info = self._learn(code)
        if event == "call":
            if info.firmware:
                self._call(frame, info)
            else:
                parent = frame.f_back
                if parent is not None and parent in self._depth and parent not in self._in_c:
                    # A virtual part standing in for the board's C.
                    self._leaf(parent, None)
        elif event == "return":
            if info.firmware:
                self._depth.pop(frame, None)
        elif event == "c_call":
            if info.firmware and frame in self._depth:
                self._in_c[frame] = arg
                self._leaf(frame, arg)
        elif info.firmware:  # c_return, c_exception
            self._in_c.pop(frame, None)

    def _learn(self, code):
        file = code.co_filename
        short = self._place(file)
        firmware = short is not None
        frame = None
        if short is None:
            short = file
        else:
            frames = self._frames.get(file)
            if frames is None:
                frames = self._frames[file] = code_frames(file)
            frame = frames.get((code.co_firstlineno, code.co_name))
        info = self._codes[code] = _Code(code, firmware, short, frame, self.top)
        return info

    def _place(self, file):
        # The file's path as the board has it, or None: not the firmware's.
        if file.startswith(self.root):
            return file[len(self.root) :]
        for folder, place in self.also:
            if file.startswith(folder):
                return place + file[len(folder) :]
        return None

    def _call(self, frame, info):
        parent = frame.f_back
        d = self._depth.get(parent)
        if d is not None and parent not in self._in_c and not info.top:
            # The common case, a firmware call from firmware: costed once per
            # call site and callee.
            key = (parent.f_code, parent.f_lasti, frame.f_code)
            site = self._sites.get(key)
            if site is None:
                kind = self._by_call(frame, info, parent)
                cost = pico.frame_bytes(kind, info.n_state or 0, info.n_exc)
                site = self._sites[key] = (kind, cost)
            kind, cost = site
            total = d[0] + cost
        else:
            kind, below = self._kind(frame, info, parent)
            if kind is None:
                cost = 0
                total = below
            else:
                cost = pico.frame_bytes(kind, info.n_state or 0, info.n_exc)
                total = below + cost
        self._depth[frame] = (total, kind, cost)
        if (total > self._floor or len(self.chains) < self.keep) and (info.top or not self.top):
            self._record(frame, total)

    def _kind(self, frame, info, parent):
        # (call kind, bytes below the frame); kind None: the frame is a base.
        if parent is not None and parent in self._depth:
            below = self._depth[parent][0]
            if info.top and not self._codes[parent.f_code].top:
                below = self.base
            c = self._in_c.get(parent)
            if c is not None:
                if info.flags & _GENERATOR:
                    return (pico.GEN_NEXT if c is next else pico.GEN_FOR), below
                return pico.FROM_C, below
            return self._by_call(frame, info, parent), below
        outer = parent
        while outer is not None and outer not in self._depth:
            outer = outer.f_back
        if outer is None:
            if info.name == "<module>" and info.file in _ENTRY:
                return None, pico.BASE_MAIN
            return pico.PLAIN, self.base
        below = self._depth[outer][0]
        if info.flags & _COROUTINE:
            return None, below + pico.ASYNCIO_TASK
        if info.name == "<module>":
            return pico.FROM_C, below + self.import_c
        return pico.FROM_C, below

    def _by_call(self, frame, info, parent):
        # The kind of call `parent` made to reach `frame`, from its bytecode.
        op, loader, name = self._call_site(parent.f_code, parent.f_lasti)
        flags = info.flags
        if flags & _GENERATOR:
            return pico.AWAIT if flags & _COROUTINE else pico.GEN_FOR
        if op == "CALL_FUNCTION_EX" or flags & _STAR:
            return pico.STAR
        if op in _CALLS:
            if loader in _LOADS_ATTRIBUTE and name == info.name:
                # obj.m(x), super().__init__(x), cls.c(x); mod.f(x) is a plain call
                return pico.METHOD if info.method else pico.PLAIN
            if info.name == "__init__":
                return pico.INIT
            if info.name == "__call__":
                return pico.CALL_DUNDER
            if info.free:
                return pico.CLOSURE
            if info.method:
                return pico.BOUND_ATTR if loader in _LOADS_ATTRIBUTE else pico.BOUND
            return pico.PLAIN
        if op == "BINARY_SUBSCR" or op == "STORE_SUBSCR":
            return pico.GETITEM
        if op == "COMPARE_OP" or op == "CONTAINS_OP":
            return pico.EQ
        if op in _LOADS_ATTRIBUTE or op == "STORE_ATTR":
            return pico.PROPERTY
        return pico.FROM_C

    def _call_site(self, code, offset):
        # (the instruction at offset, the instruction that loaded the callable
        # and the name it loaded): the callable sits under the call's n
        # arguments, so walking back from the call, it is the instruction
        # after which the ones up to the call leave exactly n more on the stack.
        key = (code, offset)
        site = self._calls.get(key)
        if site is not None:
            return site
        ins = list(dis.get_instructions(code))
        # f_lasti is within the instruction's inline caches: the last one at or before it.
        at = 0
        while at + 1 < len(ins) and ins[at + 1].offset <= offset:
            at += 1
        op = ins[at].opname
        loader, name = "", None
        if op in _CALLS:
            n = ins[at].arg or 0
            j = at - 1
            while j >= 0 and ins[j].opname in ("PRECALL", "KW_NAMES"):
                j -= 1
            s = 0
            while j >= 0:
                if s == n:
                    loader, name = ins[j].opname, ins[j].argval
                    break
                i = ins[j]
                s += dis.stack_effect(i.opcode, i.arg if i.opcode >= dis.HAVE_ARGUMENT else None)
                j -= 1
        site = self._calls[key] = (op, loader, name)
        return site

    def _leaf(self, frame, function):
        total = self._depth[frame][0] + self.c_leaf
        if self.top and not self._codes[frame.f_code].top:
            return
        if total > self._floor or len(self.chains) < self.keep:
            self._record(frame, total, function)

    # -- the deepest chains ------------------------------------------------------

    def _record(self, frame, total, c_function=None):
        if total > self.deepest:
            self.deepest = total
        frames = []
        f = frame
        while f is not None:
            d = self._depth.get(f)
            if d is not None:
                info = self._codes[f.f_code]
                kind = d[1] or "base"
                n = info.n_state
                frames.append(
                    Frame(info.file, f.f_code.co_qualname, f.f_lineno, kind, n, info.n_exc, d[0])
                )
                if info.top and f.f_back is not None and not self._codes[f.f_back.f_code].top:
                    break  # the entry of the `top` code: the chain starts here
            f = f.f_back
        frames.reverse()
        if c_function is not None or total > frames[-1].bytes:
            name = getattr(c_function, "__qualname__", "a virtual part")
            frames.append(Frame("(C)", name, 0, "C leaf", None, 0, total))
        # Each frame's bytes from the totals: what a frame adds over the one
        # below it (C between them, such as asyncio's or an import's, included).
        below = self.base if self.top else 0
        for x in frames:
            x.bytes, below = x.bytes - below, x.bytes
        chain = Chain(total, frames, self.label)
        key = chain.key()
        for k in range(len(self.chains)):
            if self.chains[k].key() == key:
                if self.chains[k].bytes >= total:
                    return
                del self.chains[k]
                break
        self.chains.append(chain)
        self.chains.sort(key=lambda c: -c.bytes)
        del self.chains[self.keep :]
        if len(self.chains) == self.keep:
            self._floor = self.chains[-1].bytes
