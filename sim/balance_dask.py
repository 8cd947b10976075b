"""python -m sim balance --scheduler ADDRESS: the matches on a Dask distributed
cluster (docs/designers.md, "On many machines").

The chunks are those of the local processes (sim/balance.py's chunks(), a plan
and a range of match indices each), submitted to the scheduler's workers;
their rows come back in any order and run() hands them on in plan and match
order, so the report is the same bytes whatever plays it.  dask and
distributed are imported here only when a Cluster is made: a plain `python -m
sim balance` never loads them.

A worker plays with its own checkout of the project (each worker machine has
the same checkout and venv): every chunk carries the client's code_version(),
a hash of the simulator's and the board's Python files, and a worker whose
files differ refuses it (OtherCode), so one stale machine cannot mix other
rows into a report.
"""

import contextlib
import hashlib
import os
import socket
import typing

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler, and for a first worker to be there

_version = None


def code_version():
    """A short hash of every .py file of the packages that play a match (sim
    and the board's dicetable), by relative path and content; computed once a
    process."""
    global _version
    if _version is None:
        import dicetable
        import sim

        h = hashlib.blake2b(digest_size=6)
        for package in (sim, dicetable):
            top = os.path.dirname(os.path.abspath(str(package.__file__)))
            for folder, dirs, files in os.walk(top):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(files):
                    if name.endswith(".py"):
                        path = os.path.join(folder, name)
                        h.update(os.path.relpath(path, top).encode() + b"\0")
                        with open(path, "rb") as f:
                            h.update(f.read())
        _version = h.hexdigest()
    return _version


class OtherCode(Exception):
    """A worker whose project files are not the client's."""

    def __init__(self, host, version, wanted):
        super().__init__(host, version, wanted)
        self.host = host
        self.version = version
        self.wanted = wanted


def play_chunk(wanted, task):
    """sim.balance's chunk, on a worker that has the client's code."""
    from sim import balance

    version = code_version()
    if version != wanted:
        raise OtherCode(socket.gethostname(), version, wanted)
    return balance._play_chunk(task)


class Unreachable(Exception):
    """No scheduler at the address, or no worker joined it in time."""


class Cluster:
    """A client of the scheduler at `address`, for sim.balance.run()."""

    # A chunk costs the cluster 10-20 ms of its own (the task, the rows sent back:
    # 18 ms of CPU a chunk for Walzer's random matches, docs/designers.md), so its
    # chunks are up to ten times the local ones: 1000 matches, 0.4 s of Walzer's
    # random matches, 6 s of its heuristic ones.
    CHUNK_MAX = 1000

    def __init__(self, address, timeout=None):
        import distributed
        from distributed.comm.addressing import parse_address, parse_host_port

        if timeout is None:
            timeout = CONNECT_TIMEOUT
        self.address = address
        self.distributed = distributed
        try:
            # An address without a port: a Client made for it would fail, then
            # wait 10 s at exit and print a traceback as it is collected.
            parse_host_port(parse_address(address)[1])
            self.client = distributed.Client(
                address, timeout=timeout, set_as_default=False, direct_to_workers=False
            )
        except (OSError, ValueError, TypeError) as e:
            raise Unreachable("no Dask scheduler answers at %s (%s)" % (address, e)) from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            self.close()
            raise Unreachable(
                "the Dask scheduler at %s has no worker after %g s (start some: dask worker %s)"
                % (address, timeout, address)
            ) from None

    def threads(self):
        """The workers' threads, all together: the chunks' size is reckoned from it."""
        threads = typing.cast(dict, self.client.nthreads())  # a dict: the client is not async
        return max(1, sum(threads.values()))

    @contextlib.contextmanager
    def results(self, tasks):
        """(k, rows) of every task as it ends on the cluster; the futures not
        yet ended are cancelled when the caller stops (Ctrl-C, an error)."""
        wanted = code_version()
        futures = [self.client.submit(play_chunk, wanted, task, pure=False) for task in tasks]
        try:
            done = self.distributed.as_completed(futures, loop=self.client.loop, with_results=True)
            yield (rows for _, rows in done)
        finally:
            with contextlib.suppress(Exception):
                self.client.cancel(futures)

    def close(self):
        with contextlib.suppress(Exception):
            self.client.close(timeout=CONNECT_TIMEOUT)
