"""What python -m sim, its balance command and python -m sim.web share: the exit
statuses, the one-line refusal (Exit) and the argument parser that refuses in
one line.  sim/__main__.py's docstring says what each status means."""

import argparse
import re
import sys

PROG = "python -m sim"
USAGE = 2
FAILED = 1
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program Ctrl-C stopped


class Exit(Exception):
    """Stop with one line on stderr and this exit status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def usage(message):
    return Exit(USAGE, message)


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage block + message, as one line
        if "(" not in message:  # argparse's own words: point to the list
            message += " (%s --help lists the options)" % self.prog
        raise usage(message)


def shown(text, width=30):
    """An argument as a message quotes it: escaped, and cut if long."""
    return repr(text if len(text) <= width else text[:width] + "...")


def whole(low, high, right):
    """An argparse type: a whole number from `low` to `high` (ASCII digits only:
    int() would take '٣' and '３'); `right` says what is allowed."""

    def parse(text):
        t = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", t):
            raise argparse.ArgumentTypeError("%s is not a whole number (%s)" % (shown(text), right))
        n = int(t) if len(t) <= 20 else (low - 1 if t[0] == "-" else high + 1)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError("%s is out of range (%s)" % (shown(text), right))
        return n

    return parse


def say(text):
    if sys.stderr is not None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
