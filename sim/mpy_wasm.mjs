// Runs a Python script under the official MicroPython WebAssembly build.
//
//   node sim/mpy_wasm.mjs SCRIPT.py HEAPSIZE GC_HEAP FILES.json [ROMFS]
//
// THE HEAP.  HEAPSIZE is the loader's `heapsize`: the raw area, of which the
// collector keeps a part for its tables.  GC_HEAP is the gc.mem_free() +
// gc.mem_alloc() that setting must give, checked at start (0: not checked).
// sim/mpy_wasm.py pins the pair that gives the Raspberry Pi Pico's heap.
//
// This build grows its heap by itself when an allocation fails (a "split
// heap"), exactly where the Pico raises MemoryError; and it collects garbage
// only between calls into the interpreter, never inside one (gc.collect()
// inside a script only asks for the collection that comes after it).  So:
// - a line "#: next run" splits the script into parts, run one after another
//   in the same interpreter (globals are kept); garbage is collected between
//   parts, so a long test is written as many parts, each allocating less than
//   the free heap;
// - after every part the runner checks that the heap did not grow, and exits
//   with status 3 saying which part outgrew it.  (This build adds the most it
//   could still grow, a constant, to gc.mem_free(): the sum with
//   gc.mem_alloc() changes only when the heap grows.)
//
// FILES.json lists [path in MicroPython's filesystem, file on the host]: the
// firmware as the board has it, the virtual hardware (sim/hw, flashmodel) and the
// portable conformance cases (sim/mpy_wasm.py makes the list).  ROMFS, if
// given, is a ROMFS image mounted at /rom and put first on sys.path: this
// build imports a .mpy from it in place, its bytecode left in the image (as a
// frozen module's is left in the board's flash).  A Python exception exits
// with status 1 and its traceback on stderr.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";

// What this build adds to gc.mem_free(): the most it could still grow by.
const GROWTH_ROOM = 128 * 1024 * 1024;

const [script, heapArg, gcHeapArg, filesArg, romfsArg] = process.argv.slice(2);
const heapsize = Number(heapArg);
const expected = Number(gcHeapArg || "0");

const mp = await loadMicroPython({
  heapsize,
  // Copied outside the GC heap by the loader.
  romfs: romfsArg ? new Uint8Array(readFileSync(romfsArg)) : undefined,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

for (const [to, from] of JSON.parse(readFileSync(filesArg, "utf8"))) {
  mp.FS.mkdirTree(dirname(to));
  mp.FS.writeFile(to, readFileSync(from));
}

// The heap's size as the runner sees it, read without allocating.
const path = (romfsArg ? "'/rom', " : "") + "'/firmware', '/tests', '/'";
mp.runPython("import gc\nimport sys\nsys.path[:0] = [" + path + "]\n" +
             "def _heap_total():\n    return gc.mem_free() + gc.mem_alloc()\n" +
             "_heap_at_start = _heap_total()");
const start = mp.globals.get("_heap_at_start");
const gcHeap = start - GROWTH_ROOM;
if (expected && gcHeap !== expected) {
  process.stderr.write(`heap setup: heapsize ${heapsize} gives ${gcHeap} bytes, not ${expected}\n`);
  process.exit(2);
}

let n = 0;
try {
  for (const part of readFileSync(script, "utf8").split(/^#: next run$/m)) {
    n += 1;
    // The check runs in the same call as the part: the collection that would
    // give a grown heap back comes only after the call, and only when asked
    // for (gc.collect()), as the next part then finds it done.
    mp.runPython(part + "\n_grown = _heap_total() - _heap_at_start\ngc.collect()\n");
    const grown = mp.globals.get("_grown");
    if (grown !== 0) {
      process.stderr.write(
        `heap outgrown in part ${n} of the script: the ${gcHeap}-byte heap was full and ` +
        `had to grow (by ${grown} bytes); on the Pico this is a MemoryError\n`);
      process.exit(3);
    }
  }
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
