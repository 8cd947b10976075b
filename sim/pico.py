"""The Raspberry Pi Pico as the project models it: its heap and its C stack.
The one place these figures are pinned.

THE HEAP.  GC_HEAP is what gc.mem_free() + gc.mem_alloc() gives on the rp2
port (v1.28, Raspberry Pi Pico).  HEAPSIZE is the WebAssembly loader's
`heapsize` that gives the same GC heap in the official build pinned in
package.json (@micropython/micropython-webassembly-pyscript 1.29.0-6): the
loader's area includes the collector's own tables, so the figure belongs to
that build (1.27.0 needed 251664).  It is the smallest heapsize that gives
GC_HEAP (253583 gives 245824, 253660 gives 245952).  Every MicroPython run
of the project (sim/mpy_wasm.py, sim/vboard) gets it and checks the pair.

THE C STACK.  On the rp2 port every Python call nests C frames on one
8,192-byte stack; the firmware raises "maximum recursion depth exceeded" at
a call made with C_STACK_LIMIT bytes or more in use, and an overflow can run
past the stack's end into the GC heap.  The WebAssembly build keeps Python
frames on a separate stack and CPython has no such limit, so neither shows
it: sim/cstack.py costs every call of a run by this rule instead.  The rule
and every figure below were measured on the official MicroPython v1.28.0 rp2
firmware (board RPI_PICO) with micropython.stack_use() on an instruction-level
RP2040 emulator, at commit 74a722b; each call kind's extra is the measured
cost per frame less the plain rule (docs/firmware.md, "The C stack").

    frame_bytes(kind, n_state, n_exc)   one Python frame's C stack:
        state = 4 * n_state + 12 * n_exc
        K + 200 + round_up_8(20 + state)   while state <= 44 (on the C stack)
        K + 200                            above (the state is on the GC heap)

n_state and n_exc come from the compiled code (sim/mpy_code.py); K is the
call kind's extra (EXTRA).  A generator resumed, and an await level, cost a
fixed amount whatever the frame (their state is always on the heap).
"""

GC_HEAP = 245888
HEAPSIZE = 253584

C_STACK_LIMIT = 7936  # stack_use() at a call from which the firmware raises
STACK_BUDGET = 6000  # the deepest chain the suite allows (tests/test_board_stack.py)
STACK_AIM = 5000  # what the firmware is built to stay under

VM_FRAMES = 200  # the VM's own C frames per Python call
STATE_ON_STACK = 44  # bytes of frame state alloca'd on the C stack, at most

# Call kinds, and each one's extra K over a plain call (measured).
PLAIN = "plain"  # f(x): a function by a global or local name, a lambda, keyword args
METHOD = "method"  # obj.m(x), C.s(x) of a staticmethod, cls.c(x) of a classmethod
BOUND = "bound method"  # a bound method kept in a local, a dict or a list: f(x)
BOUND_ATTR = "bound method attribute"  # ... kept in an attribute: self.cb(x)
CLOSURE = "closure"  # a function with free variables
STAR = "star"  # f(*t), or def f(*a, **k)
CALL_DUNDER = "__call__"  # an instance called
INIT = "class call"  # C(x) running __init__
FROM_C = "called from C"  # sorted(key=f), map(f, ...), anything C calls back
PROPERTY = "property"  # a property's getter
GETITEM = "__getitem__"  # self[x]
EQ = "__eq__"  # a == b, and the other comparisons
EXTRA = {
    PLAIN: 0,
    METHOD: 16,
    BOUND: 96,
    BOUND_ATTR: 112,
    CLOSURE: 96,
    STAR: 88,
    CALL_DUNDER: 152,
    INIT: 128,
    FROM_C: 176,
    PROPERTY: 136,
    GETITEM: 104,
    EQ: 192,
}

# Kinds whose frame state is always on the heap: bytes per level, whatever the frame.
GEN_NEXT = "next(generator)"  # a generator resumed by next() from another generator
GEN_FOR = "for over a generator"  # ... by for or yield from, or a C function consuming it
AWAIT = "await"  # an async def awaiting another
FIXED = {GEN_NEXT: 272, GEN_FOR: 192, AWAIT: 192}

# What is in use before the firmware's first frame (stack_use() there).
BASE_MAIN = 460  # the top level of main.py (or boot.py) at a power-up
BASE_REPL = 468  # the top level of a script run from the raw REPL (mpremote)
ASYNCIO_TASK = 1148 - BASE_MAIN  # asyncio.run and its scheduler, up to a task's coroutine

# Interrupts run on the same stack, on top of whatever frame they interrupt.
IRQ_SOFT = 344  # Pin.irq soft, micropython.schedule, a machine.Timer callback
IRQ_HARD = 504  # Pin.irq(hard=True)


def frame_bytes(kind, n_state, n_exc=0):
    """The C stack one Python frame of this call kind takes on the Pico."""
    if kind in FIXED:
        return FIXED[kind]
    state = 4 * n_state + 12 * n_exc
    k = EXTRA[kind] + VM_FRAMES
    if state <= STATE_ON_STACK:
        return k + (20 + state + 7) // 8 * 8
    return k
