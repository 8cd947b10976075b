// The virtual board: the official MicroPython WebAssembly build under Node,
// its REPL on a TCP socket on 127.0.0.1, so that the real `mpremote connect
// socket://127.0.0.1:PORT` (pyserial's socket:// URL) talks to it as to a
// Pico on USB.
//
//   node sim/vboard/vboard.mjs [--port N] [--fs DIR] [--heapsize BYTES --gc-heap BYTES]
//
// Prints "PORT <n>" on stdout once it listens (port 0, the default, picks a
// free one).  Commands on stdin, one a line: "save" writes the board's
// filesystem to DIR and answers "SAVED"; "resets" answers "RESETS <n>", the
// number of watchdog resets since the process started; "heap" answers "HEAP
// <n>", the bytes the heap has grown by since start (see THE HEAP); "quit" saves and exits
// (so does SIGTERM or the end of stdin).  One client at a time; a new
// connection replaces the old one, like unplugging and replugging USB (the
// REPL state is kept, as on a board whose cable is pulled).
//
// THE HEAP.  --heapsize is the loader's heapsize and --gc-heap the GC heap it
// must give (sim/pico.py pins the Raspberry Pi Pico's pair); the board exits
// at start if it does not.  This build never collects garbage inside a call
// into the interpreter and grows its heap instead where the Pico would
// collect, and where the Pico raises MemoryError (sim/mpy_wasm.mjs).  So
// garbage is collected after every call the board makes (a chunk of input
// from the client, a timer's callback, boot.py and main.py), as the Pico's
// collector would before running out, and any growth after that is a heap
// the Pico does not have: it is counted, told on stderr and by "heap".
//
// THE FILESYSTEM.  The board's flash is the root of the wasm build's in-memory
// filesystem (Emscripten's /tmp, /home and /dev are removed at start; /proc
// cannot be, and is skipped).  With --fs DIR it is loaded from DIR at power-up
// and written back to DIR (mirrored) on "save", on exit, and whenever a client
// disconnects; so a test "power-cycles" the board by stopping and starting it
// on the same DIR, and inspects what a tool left on it in DIR.
//
// WHAT IS EMULATED, AND WHY (the wasm port is not a board port):
// - Power-up runs boot.py then main.py, like the rp2 port.  The maintenance
//   button is held (the `machine` shim's Pin reads 0), so main.py does not start
//   the table app, which would never return; this is how a maker flashes.
// - Soft reset.  replProcessChar() returns 0x100 (PYEXEC_FORCED_EXIT) for
//   Ctrl-D on an empty line or a SystemExit, and does nothing else.  The glue
//   then does what the board's main loop does: prints "MPY: soft reboot",
//   resets the Python state (user modules dropped from sys.modules, __main__
//   cleared, cwd "/", sys.path reset), runs boot.py (and main.py when in the
//   friendly REPL) and restarts the REPL (replInit() re-enters the raw REPL if
//   that was the mode, printing "raw REPL; CTRL-B to exit").  The heap is not
//   re-initialised: mp_js_init cannot safely be called twice.
// - Raw-paste mode.  Ctrl-E "A" Ctrl-A would make the port's blocking stdin
//   read spin forever (it returns 0), so the glue intercepts that exact
//   sequence and answers "R\x00" ("understood, not supported"): mpremote then
//   falls back to the plain raw REPL, as with an old board.
// - Output.  loadMicroPython({linebuffer: false}) calls stdout per byte; bytes
//   are gathered for each replProcessChar() call and sent in one write.
// - errno.  The errno module has MicroPython's (Linux) numbers, but the
//   filesystem raises Emscripten's (ENOENT = 44, EEXIST = 20, ...), which the
//   traceback shows as "OSError: 44"; mpremote recognises filesystem errors by
//   the text "ENOENT" etc. or by a Linux number, so it would report nothing
//   useful (and Emscripten's 2 is EACCES).  The builtin errno module and
//   OSError cannot be patched from Python, so the glue translates the
//   traceback's last line: "OSError: 44" becomes "OSError: [Errno 2] ENOENT",
//   exactly what the rp2 port prints.  Code on the board that compares
//   e.errno with errno.ENOENT still sees 44 (the firmware does not do that:
//   it catches OSError as a whole).
// - `binascii` is a shim calling Node's base64 and hex: the build's own is
//   micropython-lib's Python (the rp2 port's is C), which allocates about
//   2.4 KB of heap per byte it encodes and would outgrow the Pico's heap on
//   every 4 KB file chunk mpremote and the host tools move.
// - `machine` (not in this build) is a small shim: Pin (the maintenance button
//   reads held), and the watchdog as the rp2 port has it, on real JS timers:
//   WDT(timeout=ms) starts it (again: re-armed with the new timeout, as
//   pico-sdk's watchdog_enable does) and it cannot be stopped; Timer(-1,
//   period=, callback=) is a soft timer (callbacks run between calls into
//   MicroPython, like the board's scheduled ones); mem32 reads the WATCHDOG
//   CTRL register's ENABLE bit (0x40058000, bit 30) and nothing else.  A
//   soft reset stops every Timer (soft_timer_deinit in the port's main loop)
//   and leaves the watchdog running.  A watchdog not fed within its timeout
//   resets the board like a power cycle: the client is dropped (USB goes
//   away), the watchdog is off, boot.py and main.py run, the filesystem is
//   kept; "resets" counts these.
// - A running app.  main.py's asyncio.run() would block this single-threaded
//   process (no Ctrl-C, no timers), and this build's asyncio runs its tasks
//   on the JS event loop instead (create_task, no run).  So a program stands
//   for it: `import vboard; vboard.run(coro, on_interrupt)` runs the
//   coroutine's tasks in the background until a Ctrl-C from the client, a
//   soft reset or a reset stops them.  Ctrl-C is what KeyboardInterrupt out of
//   asyncio.run is on the board: the tasks end, on_interrupt() runs (the
//   `except KeyboardInterrupt:` around asyncio.run), and the REPL carries on.
//   A task that loops without awaiting hangs this whole process, so a hung
//   task here is one that awaits forever.  Each pass of the tasks
//   (asyncio's _run_iter, called from a JS timer) is followed, on the event
//   loop, by a collection and by sending its output to the client, as every
//   other call into the board is.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const args = process.argv.slice(2);
function opt(name, dflt) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
}
const PORT = Number(opt("--port", "0"));
const HOST_DIR = opt("--fs", null);
// The loader's heapsize that gives the Pico's heap: sim/pico.py pins it, sim/vboard passes it.
const HEAPSIZE = Number(opt("--heapsize", "0"));
if (!HEAPSIZE) {
  console.error("vboard.mjs: --heapsize is required (sim/pico.py HEAPSIZE)");
  process.exit(2);
}
const GC_HEAP = Number(opt("--gc-heap", "0"));
// What this build adds to gc.mem_free(): the most it could still grow by.
const GROWTH_ROOM = 128 * 1024 * 1024;

// Emscripten errno -> [Linux errno, name MicroPython prints or null].
const ERRNO = {
  44: [2, "ENOENT"], 20: [17, "EEXIST"], 31: [21, "EISDIR"], 54: [20, null],
  55: [39, null], 28: [22, "EINVAL"], 2: [13, "EACCES"], 63: [1, "EPERM"],
  8: [9, "EBADF"], 29: [5, "EIO"], 51: [28, null], 10: [16, null],
  75: [18, null], 69: [30, null], 43: [19, "ENODEV"], 138: [95, "EOPNOTSUPP"],
  48: [12, "ENOMEM"],
};

let out = [];            // bytes produced by the current call into MicroPython
let client = null;       // the connected socket, if any

const mp = await loadMicroPython({
  heapsize: HEAPSIZE,
  linebuffer: false,
  stdout: (b) => out.push(b[0]),
  stderr: (b) => out.push(b[0]),
});
const FS = mp.FS;

function rmTree(p) {
  const st = FS.lstat(p);
  if (FS.isDir(st.mode)) {
    for (const n of FS.readdir(p)) if (n !== "." && n !== "..") rmTree(p + "/" + n);
    FS.rmdir(p);
  } else {
    FS.unlink(p);
  }
}
for (const d of ["/tmp", "/home", "/dev"]) {
  try { rmTree(d); } catch { /* not there */ }
}
const SKIP = new Set(["proc"]);

// -- the board's flash <-> the host folder ----------------------------------
function loadHost(src, dst) {
  for (const name of fs.readdirSync(src)) {
    const from = path.join(src, name);
    const to = dst === "/" ? "/" + name : dst + "/" + name;
    if (fs.statSync(from).isDirectory()) {
      FS.mkdir(to);
      loadHost(from, to);
    } else {
      FS.writeFile(to, fs.readFileSync(from));
    }
  }
}
function saveHost(src, dst) {
  fs.mkdirSync(dst, { recursive: true });
  const keep = new Set();
  for (const name of FS.readdir(src)) {
    if (name === "." || name === ".." || (src === "/" && SKIP.has(name))) continue;
    keep.add(name);
    const from = src === "/" ? "/" + name : src + "/" + name;
    const to = path.join(dst, name);
    if (FS.isDir(FS.stat(from).mode)) {
      if (fs.existsSync(to) && !fs.statSync(to).isDirectory()) fs.rmSync(to);
      saveHost(from, to);
    } else {
      if (fs.existsSync(to) && fs.statSync(to).isDirectory()) fs.rmSync(to, { recursive: true });
      fs.writeFileSync(to, FS.readFile(from));
    }
  }
  for (const name of fs.readdirSync(dst)) {
    if (!keep.has(name)) fs.rmSync(path.join(dst, name), { recursive: true, force: true });
  }
}
function save() {
  if (HOST_DIR) saveHost("/", HOST_DIR);
}
if (HOST_DIR) {
  fs.mkdirSync(HOST_DIR, { recursive: true });
  loadHost(HOST_DIR, "/");
}

// -- output to the client ------------------------------------------------------
function translateErrno(text) {
  return text.replace(/OSError: (\d+)(\r?\n)/g, (m, n, eol) => {
    const e = ERRNO[Number(n)];
    if (!e) return m;
    return e[1] ? `OSError: [Errno ${e[0]}] ${e[1]}${eol}` : `OSError: ${e[0]}${eol}`;
  });
}
function flush() {
  if (out.length === 0) return;
  let buf = Buffer.from(out);
  out = [];
  if (buf.includes("OSError: ")) buf = Buffer.from(translateErrno(buf.toString("latin1")), "latin1");
  if (client) client.write(buf);
}

// -- the watchdog and soft timers ------------------------------------------------
let resets = 0;          // watchdog resets so far
let wdt = null;          // the running watchdog: {ms, handle}; null until started
const timers = new Map();
let afterPending = false; // a collection and flush after an asyncio pass is due
let nextTimer = 1;

function call(fn) {
  // A Python callback run from a JS timer; its output goes to the client.
  try {
    fn();
  } catch (err) {
    for (const c of Buffer.from(String(err.message || err) + "\r\n")) out.push(c);
  }
  collect();
  flush();
}

// -- the heap -------------------------------------------------------------------
let heapAtStart = 0;     // gc.mem_free() + gc.mem_alloc() at power-up
let grown = 0;           // what the heap has grown by since, in bytes
function heapTotal() {
  mp.runPython("__vboard_heap = __import__('gc').mem_free() + __import__('gc').mem_alloc()");
  const total = mp.globals.get("__vboard_heap");
  mp.runPython("del __vboard_heap");
  return total;
}
function collect() {
  // The collection this build does only at the top level, after the call.
  mp.runPython("__import__('gc').collect()");
  const now = heapTotal() - heapAtStart;
  if (now !== grown) {
    grown = now;
    process.stderr.write(`vboard: the heap had to grow by ${grown} bytes: ` +
                         "on the Pico this is a MemoryError\n");
  }
}
function stopTimers() {
  for (const t of timers.values()) clearInterval(t);
  timers.clear();
}
globalThis.vboardHw = {
  wdtStart(ms) {
    if (wdt) clearTimeout(wdt.handle);
    wdt = { ms, handle: setTimeout(watchdogReset, ms) };
  },
  wdtFeed() {
    if (!wdt) return;
    clearTimeout(wdt.handle);
    wdt.handle = setTimeout(watchdogReset, wdt.ms);
  },
  wdtRunning() {
    return wdt !== null;
  },
  timerStart(period, periodic, fn) {
    const id = nextTimer++;
    const tick = () => {
      if (!periodic) timers.delete(id);
      call(fn);
    };
    timers.set(id, periodic ? setInterval(tick, period) : setTimeout(tick, period));
    return id;
  },
  b64encode(data, newline) {
    return Buffer.from(Uint8Array.from(data)).toString("base64") + (newline ? "\n" : "");
  },
  b64decode(text) {
    return Array.from(Buffer.from(String(text), "base64"));
  },
  hexEncode(data) {
    return Buffer.from(Uint8Array.from(data)).toString("hex");
  },
  hexDecode(text) {
    return Array.from(Buffer.from(String(text), "hex"));
  },
  afterCall() {
    // Called from inside a pass of the asyncio tasks: the collection must
    // wait until the pass has returned (this build cannot collect inside a
    // call), so it and the flush run next on the JS event loop.
    if (afterPending) return;
    afterPending = true;
    setTimeout(() => {
      afterPending = false;
      collect();
      flush();
    }, 0);
  },
  timerStop(id) {
    const t = timers.get(id);
    if (t !== undefined) clearInterval(t);
    timers.delete(id);
  },
};

function watchdogReset() {
  resets += 1;
  wdt = null;
  stopTimers();
  if (client) {
    const c = client;
    client = null;
    c.destroy();
    try { save(); } catch (err) { process.stderr.write("vboard: save: " + err + "\n"); }
  }
  pending = [];
  rawMode = false;
  boot(true, false);
  out = [];              // nobody is listening while the board comes up
}

// -- power-up and soft reset ---------------------------------------------------
const RESET_PY = `
import sys, gc
for _k in list(sys.modules):
    del sys.modules[_k]
def _shims():
    import sys, js, jsffi
    hw = js.vboardHw
    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 1
        PULL_DOWN = 2
        def __init__(self, pin, mode=-1, pull=-1, value=None):
            self.pin = pin
        def value(self, v=None):
            return 0
        def init(self, *a, **k):
            pass
    class WDT:
        def __init__(self, id=0, timeout=5000):
            if timeout > 8388:
                raise ValueError('timeout exceeds 8388')
            hw.wdtStart(timeout)
        def feed(self):
            hw.wdtFeed()
    class Timer:
        ONE_SHOT = 0
        PERIODIC = 1
        def __init__(self, id=-1, **kw):
            self._id = 0
            if kw:
                self.init(**kw)
        def init(self, mode=1, period=1000, callback=None, freq=None, tick_hz=1000, hard=None):
            self.deinit()
            period = 1000 // freq if freq else period * 1000 // tick_hz
            if callback is not None:
                self._id = hw.timerStart(max(1, period), mode == 1,
                                         jsffi.create_proxy(lambda: callback(self)))
        def deinit(self):
            if self._id:
                hw.timerStop(self._id)
                self._id = 0
    class Mem32:
        def __getitem__(self, addr):
            if addr == 0x40058000:
                return 0x40000000 if hw.wdtRunning() else 0
            raise ValueError('no register at 0x%08x on the virtual board' % addr)
    class machine:
        def soft_reset():
            raise SystemExit
        def reset():
            raise SystemExit
    machine.Pin = Pin
    machine.WDT = WDT
    machine.Timer = Timer
    machine.mem32 = Mem32()
    class vboard:
        interrupt = None
        def run(coro, on_interrupt):
            import asyncio
            core = sys.modules['asyncio.core']
            if not hasattr(core, 'vboard_inner'):
                # Each pass of the tasks ends like any call into the board:
                # its output goes to the client and its garbage is collected
                # (both once the pass has returned to JS: see afterCall).
                core.vboard_inner = core._run_iter
                def _run_iter():
                    try:
                        core.vboard_inner()
                    finally:
                        hw.afterCall()
                core._run_iter = _run_iter
            async def program():
                try:
                    await coro
                finally:
                    vboard.interrupt = None
            vboard.interrupt = on_interrupt
            asyncio.create_task(program())
        def stop():
            vboard.interrupt = None
            core = sys.modules.get('asyncio.core')
            if core is not None:
                if core.asyncio_timer is not None:
                    js.clearTimeout(core.asyncio_timer)
                    core.asyncio_timer = None
                core.new_event_loop()
        def ctrl_c():
            on_interrupt = vboard.interrupt
            if on_interrupt is not None:
                vboard.stop()
                print('KeyboardInterrupt: ')
                on_interrupt()
    class binascii:
        # The rp2 port's binascii is C; this build's is micropython-lib's
        # Python, which allocates about 2.4 KB of heap per byte it encodes.
        def b2a_base64(data, *, newline=True):
            return hw.b64encode(data, newline).encode()
        def a2b_base64(data):
            return bytes(hw.b64decode(data if isinstance(data, str) else data.decode()))
        def hexlify(data):
            return hw.hexEncode(data).encode()
        def unhexlify(data):
            return bytes(hw.hexDecode(data if isinstance(data, str) else data.decode()))
    sys.modules['machine'] = machine
    sys.modules['binascii'] = binascii
    sys.modules['vboard'] = vboard
_shims()
del _shims
import os
os.chdir('/')
sys.path[:] = ['', '.frozen', '/lib']
gc.collect()
`;
function runFile(name) {
  // Like pyexec_file_if_exists(): a failing boot.py prints its traceback and the board carries on.
  try { FS.stat("/" + name); } catch { return; }
  try {
    mp.runPython(`exec(open('${name}').read(), {'__name__': '__main__'})`);
  } catch (err) {
    for (const c of Buffer.from(String(err.message || err) + "\r\n")) out.push(c);
  }
}
function boot(powerUp, rawMode) {
  // Whatever program runs stops with the Python state, as on the board.
  mp.runPython("if 'vboard' in __import__('sys').modules:\n    __import__('vboard').stop()\n");
  mp.runPython("def _clear():\n    g = globals()\n    for k in list(g):\n        if k != '__name__':\n            del g[k]\n_clear()\n");
  mp.runPython(RESET_PY);
  runFile("boot.py");
  if (powerUp || !rawMode) runFile("main.py");
  mp.replInit();
  collect();
}
let rawMode = false;     // tracked only to decide whether main.py runs on a soft reset
heapAtStart = heapTotal();
if (GC_HEAP && heapAtStart - GROWTH_ROOM !== GC_HEAP) {
  process.stderr.write(`vboard: heapsize ${HEAPSIZE} gives ${heapAtStart - GROWTH_ROOM} ` +
                       `bytes of GC heap, not ${GC_HEAP}\n`);
  process.exit(2);
}
boot(true, false);
out = [];                // nobody was listening at power-up

// -- input from the client -----------------------------------------------------
let pending = [];        // bytes held while they might be Ctrl-E "A" Ctrl-A
function feed(c) {
  if (c === 0x01) rawMode = true;
  else if (c === 0x02) rawMode = false;
  else if (c === 0x03) mp.runPython("__import__('vboard').ctrl_c()");
  const r = mp.replProcessChar(c);
  if (r & 0x100) {
    for (const b of Buffer.from("MPY: soft reboot\r\n")) out.push(b);
    stopTimers();
    boot(false, rawMode);
  }
}
function receive(data) {
  for (const c of data) {
    pending.push(c);
    const p = pending;
    if (p[0] !== 0x05) {
      pending = [];
      for (const b of p) feed(b);
    } else if (p.length === 2 && p[1] !== 0x41) {
      pending = [];
      for (const b of p) feed(b);
    } else if (p.length === 3) {
      pending = [];
      if (p[2] === 0x01 && rawMode) {
        for (const b of Buffer.from("R\x00")) out.push(b);   // raw-paste: understood, refused
      } else {
        for (const b of p) feed(b);
      }
    }
  }
  collect();
  flush();
}

const server = net.createServer((sock) => {
  if (client) client.destroy();
  client = sock;
  sock.setNoDelay(true);
  sock.on("data", (d) => {
    try {
      receive(d);
    } catch (err) {
      process.stderr.write("vboard: " + (err.stack || err) + "\n");
    }
  });
  const gone = () => {
    if (client === sock) {
      client = null;
      pending = [];
      try { save(); } catch (err) { process.stderr.write("vboard: save: " + err + "\n"); }
    }
  };
  sock.on("close", gone);
  sock.on("error", gone);
});

function quit() {
  try { save(); } finally { process.exit(0); }
}
process.on("SIGTERM", quit);
process.on("SIGINT", quit);

server.listen(PORT, "127.0.0.1", () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const cmd = line.trim();
  if (cmd === "save") {
    save();
    process.stdout.write("SAVED\n");
  } else if (cmd === "resets") {
    process.stdout.write(`RESETS ${resets}\n`);
  } else if (cmd === "heap") {
    process.stdout.write(`HEAP ${grown}\n`);
  } else if (cmd === "quit") {
    quit();
  }
});
rl.on("close", quit);
