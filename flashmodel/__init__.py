"""The board's flash in memory: the NOR chip (norflash.py) and the filesystem
over it (vflash.py).

A package of its own, below both the simulator and the host tools: the
virtual board (sim/hw) runs on it, and the maker's tools read and write
registry.bin and journal images with hal.storage's own code over it
(host_tools/registry_csv.py, backup.py, journal_image.py).  Portable: every
MicroPython run has it compiled in its filesystem (sim/mpy_wasm.py).
"""
