// Runs a Python script under the official MicroPython WebAssembly build.
//
//   node tests/mpy_wasm.mjs SCRIPT.py [HEAP_KB]
//
// A line "#: next run" splits the script into parts run one after another
// in the same interpreter: this build's gc.collect() frees nothing that was
// allocated earlier in the same run, so a heap measurement that needs a real
// collection starts a new part.
// The firmware, the portable conformance cases and the virtual hardware
// (sim/hw) are copied from disk into MicroPython's in-memory filesystem, so
// the board's code is imported unchanged.  A Python exception exits with status 1 and its
// traceback on stderr.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [script, heapKb = "1024"] = process.argv.slice(2);

const mp = await loadMicroPython({
  heapsize: Number(heapKb) * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, dst + "/" + name);
    } else if (name.endsWith(".py")) {
      mp.FS.writeFile(dst + "/" + name, readFileSync(from));
    }
  }
}

copyTree(join(root, "firmware"), "/firmware");
copyTree(join(root, "tests", "cases"), "/tests/cases");
if (existsSync(join(root, "sim", "hw"))) {
  // Only the portable virtual parts: sim/__init__.py is host-side code.
  copyTree(join(root, "sim", "hw"), "/sim/hw");
  mp.FS.writeFile("/sim/__init__.py", "");
}

try {
  mp.runPython("import sys\nsys.path[:0] = ['/firmware', '/tests', '/']");
  for (const part of readFileSync(script, "utf8").split(/^#: next run$/m)) {
    mp.runPython(part);
  }
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
