"""A virtual rp2 module: the PIO assembler, and the RP2040's state machines
and DMA channels as recorders.  Portable: runs under MicroPython.

VRP2() stands in for MicroPython's rp2 module (sys.modules["rp2"] = VRP2()):

- asm_pio(**settings) assembles a program written in MicroPython's PIO
  language into what the board's rp2.asm_pio gives StateMachine: a list
  [instructions (array of 16-bit words), -1, -1, EXECCTRL, SHIFTCTRL,
  out_init, set_init, sideset_init], the words and register fields encoded
  as the RP2040 datasheet gives them (sections 3.4 and 3.7), so that a PIO
  emulator can run them.  Like the board's, it runs the decorated function
  twice (labels, then words) with the language's names as its only
  globals.  It knows what the firmware uses: out, jmp, nop, labels, wrap,
  delays and side-set on every instruction (not the optional kind).
- StateMachine(id, program, **settings) keeps the settings; every put()
  records the words that entered the TX FIFO, one list per call
  (`puts`).  `machines` holds them by id.
- DMA() claims the next channel (`channels`); config() and pack_ctrl()
  take the board's arguments and register layout (unpack_ctrl() reads a
  value back), and a triggered transfer moves `count` items of the ctrl's
  size from `read` into the state machine given as `write`, at once.  A
  byte or halfword written to a FIFO arrives replicated across the 32-bit
  word, as on the RP2040's bus.
"""

from array import array

# DMA CTRL register fields: (name, lowest bit, width), RP2040 datasheet 2.5.7.
CTRL_FIELDS = (
    ("enable", 0, 1),
    ("high_pri", 1, 1),
    ("size", 2, 2),
    ("inc_read", 4, 1),
    ("inc_write", 5, 1),
    ("ring_size", 6, 4),
    ("ring_sel", 10, 1),
    ("chain_to", 11, 4),
    ("treq_sel", 15, 6),
    ("irq_quiet", 21, 1),
    ("bswap", 22, 1),
    ("sniff_en", 23, 1),
)
# The board's default: enabled, word size, both addresses incrementing, no
# pacing (TREQ 0x3F), quiet; chained to itself (no chaining).
DEFAULT_CTRL = 1 | 2 << 2 | 1 << 4 | 1 << 5 | 0x3F << 15 | 1 << 21
REPLICATE = (0x01010101, 0x00010001, 1)  # by transfer size: byte, halfword, word


class VPIO:
    """rp2.PIO's constants."""

    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


class Assembler:
    """One program being assembled: the functions and names of the PIO language."""

    def __init__(
        self,
        out_init=None,
        set_init=None,
        sideset_init=None,
        side_pindir=False,
        in_shiftdir=0,
        out_shiftdir=0,
        autopush=False,
        autopull=False,
        push_thresh=32,
        pull_thresh=32,
        fifo_join=0,
    ):
        self.execctrl = int(side_pindir) << 29
        self.shiftctrl = (
            fifo_join << 30
            | (pull_thresh & 0x1F) << 25
            | (push_thresh & 0x1F) << 20
            | out_shiftdir << 19
            | in_shiftdir << 18
            | int(autopull) << 17
            | int(autopush) << 16
        )
        self.pins = (out_init, set_init, sideset_init)
        if sideset_init is None:
            self.side_bits = 0
        else:
            self.side_bits = 1 if isinstance(sideset_init, int) else len(sideset_init)
        self.labels = {}
        self.words = array("H")
        self.wrap_top = None
        self.final = False
        self.count = 0
        self.sided = 0

    def names(self):
        """The globals the program body sees."""
        names = {
            "pins": 0,
            "x": 1,
            "y": 2,
            "null": 3,
            "pindirs": 4,
            "pc": 5,
            "isr": 6,
            "osr": 7,
            "not_x": 1,
            "x_dec": 2,
            "not_y": 3,
            "y_dec": 4,
            "x_not_y": 5,
            "pin": 6,
            "not_osre": 7,
        }
        for name in ("wrap_target", "wrap", "label", "out", "jmp", "nop"):
            names[name] = getattr(self, name)
        return names

    def start(self, final):
        if final:
            if self.wrap_top is None:
                self.wrap_top = self.count - 1
            self.execctrl |= self.wrap_top << 12
            if self.sided not in (0, self.count):
                raise ValueError("optional side-set (side() on some instructions only)")
        self.final = final
        self.count = 0
        self.sided = 0

    def program(self):
        out_init, set_init, sideset_init = self.pins
        return [self.words, -1, -1, self.execctrl, self.shiftctrl, out_init, set_init, sideset_init]

    def wrap_target(self):
        if not self.final:
            self.execctrl |= self.count << 7

    def wrap(self):
        self.wrap_top = self.count - 1

    def label(self, name):
        if not self.final:
            if name in self.labels:
                raise ValueError("duplicate label " + name)
            self.labels[name] = self.count

    def word(self, instr):
        self.count += 1
        if self.final:
            self.words.append(instr)
        return self

    def out(self, dest, bits):
        if not 0 < bits <= 32:
            raise ValueError("bit count")
        return self.word(0x6000 | dest << 5 | bits & 0x1F)

    def jmp(self, cond, target=None):
        if target is None:
            cond, target = 0, cond
        return self.word(cond << 5 | (self.labels[target] if self.final else 0))

    def nop(self):
        return self.word(0xA042)  # mov y, y

    def side(self, value):
        self.sided += 1
        if self.final:
            if value >= 1 << self.side_bits:
                raise ValueError("side-set value too large")
            self.words[-1] |= value << (13 - self.side_bits)
        return self

    def __getitem__(self, delay):
        if self.final:
            if delay >= 1 << (5 - self.side_bits):
                raise ValueError("delay too large")
            self.words[-1] |= delay << 8
        return self


class VStateMachine:
    """One state machine: its settings and what entered its TX FIFO."""

    def __init__(self, sm_id, program=None, freq=-1, sideset_base=None, **settings):
        self.id = sm_id
        self.program = program
        self.freq = freq
        self.sideset_base = sideset_base
        self.settings = settings
        self.running = False
        self.puts = []

    def active(self, value=None):
        if value is not None:
            self.running = bool(value)
        return self.running

    def put(self, value, shift=0):
        words = [value] if isinstance(value, int) else value
        self.puts.append([(w << shift) & 0xFFFFFFFF for w in words])

    def top_bytes(self, k=-1):
        """The top byte of every word of put k: what a program that shifts
        8 bits MSB first out of each word sends."""
        return bytes([w >> 24 for w in self.puts[k]])


def unpack_ctrl(value):
    """A DMA CTRL register value as a dict of its fields."""
    fields = {}
    for name, shift, width in CTRL_FIELDS:
        fields[name] = (value >> shift) & ((1 << width) - 1)
    return fields


class VDMA:
    """One DMA channel whose transfers into a state machine happen at once."""

    def __init__(self, channel):
        self.channel = channel
        self.read = None
        self.write = None
        self.count = 0
        self.ctrl = 0
        self.transfers = 0

    def pack_ctrl(self, **fields):
        values = unpack_ctrl(DEFAULT_CTRL | self.channel << 11)
        for name in fields:
            if name not in values:
                raise TypeError(name)
        values.update(fields)
        value = 0
        for name, shift, width in CTRL_FIELDS:
            value |= (int(values[name]) & ((1 << width) - 1)) << shift
        return value

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        if read is not None:
            self.read = read
        if write is not None:
            self.write = write
        if count is not None:
            self.count = count
        if ctrl is not None:
            self.ctrl = ctrl
        if trigger:
            self._transfer()

    def _transfer(self):
        if self.read is None or self.write is None:
            raise ValueError("transfer before read and write are set")
        fields = unpack_ctrl(self.ctrl)
        size = 1 << fields["size"]
        data = bytes(self.read)
        step = size if fields["inc_read"] else 0
        replicate = REPLICATE[fields["size"]]
        words = []
        for i in range(self.count):
            item = int.from_bytes(data[i * step : i * step + size], "little")
            words.append(item * replicate)
        self.write.put(words)
        self.transfers += 1


class VRP2:
    """The rp2 module's names, with the state machines and DMA channels made so far."""

    PIO = VPIO

    def __init__(self):
        self.machines = {}
        self.channels = []

    def asm_pio(self, **settings):
        asm = Assembler(**settings)

        def assemble(body):
            glob = body.__globals__
            saved = glob.copy()
            try:
                for final in (False, True):
                    glob.clear()
                    glob.update(asm.names())
                    asm.start(final)
                    body()
            finally:
                glob.clear()
                glob.update(saved)
            return asm.program()

        return assemble

    def StateMachine(self, sm_id, program=None, **settings):
        self.machines[sm_id] = VStateMachine(sm_id, program, **settings)
        return self.machines[sm_id]

    def DMA(self):
        self.channels.append(VDMA(len(self.channels)))
        return self.channels[-1]
