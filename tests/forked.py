"""Tests that press Ctrl-C on the board's asyncio loop run in a forked child.

A KeyboardInterrupt that propagates out of CPython 3.11's asyncio event loop
leaves the interpreter's C recursion count off: a later ast.parse in the same
process (tests/test_board_frames.py) fails with "AST constructor recursion
depth mismatch".  in_a_fork(test) runs the test, fixtures already made, in a
child that exits when it is done; the test passes when the child does, and a
failure's traceback is printed by the child (pytest shows it).
"""

import functools
import os
import sys
import traceback


def in_a_fork(test):
    @functools.wraps(test)
    def run(*args, **kwargs):
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                test(*args, **kwargs)
                code = 0
            except BaseException:  # noqa: BLE001 - reported, then the child ends
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, "failed in its fork: traceback above"

    return run
