"""The one check every host door that reads a file makes before it opens it.

open() of a FIFO waits for a writer, for ever; a character device such as
/dev/zero never ends; a socket cannot be opened at all.  So each door (the
simulator's --challenges and --replay, the web table's --open, match files,
and in host_tools a registry CSV, a journal.bin, a backup folder's files,
the firmware's sources) asks special() first and refuses what it names in its
own one line, in its own style, 'not a regular file (%s)' and what to give,
e.g.

    x.fifo: not a regular file (a FIFO); give a challenge set, e.g. ...

Only os.stat is used: it follows a symbolic link (a link to a FIFO is a FIFO)
and opens nothing.  A folder is not named here: every door already says what
a folder is to it (a backup to restore, a folder without a journal.bin, ...).
"""

import os
import stat

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special(path):
    """What `path` names if it is neither a regular file nor a folder: 'a FIFO',
    'a character device', 'a block device', 'a socket' (its link followed);
    None for a regular file, a folder, and a path os.stat cannot reach (not
    there, not allowed: the door's own open() then says which)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "neither a file nor a folder"
