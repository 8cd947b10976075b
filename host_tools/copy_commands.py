"""flash, backup and restore: the commands that copy files between the host and
the board (host_tools/flash.py and host_tools/backup.py do the copying)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from host_tools import errors
from host_tools.cli import NOTHING_WRITTEN, progress, say, with_board


def cmd_flash(args: argparse.Namespace) -> int:
    from host_tools.flash import build, flash_build

    files = build(args.firmware)  # the folder and every file checked before the board

    def work(board: Any) -> int:
        copied, removed = flash_build(board, files, progress)
        if not copied and not removed:
            say(
                "the board already has the %d files of %s (compared by SHA-256): nothing "
                "was copied" % (len(files), args.firmware)
            )
        else:
            say(
                "flashed %s: %d of %d files copied, %d old ones removed; the board has been "
                "soft-reset" % (args.firmware, len(copied), len(files), len(removed))
            )
        return 0

    return with_board(args, work)


def cmd_backup(args: argparse.Namespace) -> int:
    from host_tools.backup import (
        NOTHING_TO_BACK_UP,
        check_destination,
        describe,
        normalised,
        read_board,
        write_folder,
    )

    check_destination(args.folder, args.force)
    existed = os.path.isdir(args.folder) and bool(os.listdir(args.folder))

    def work(board: Any) -> int:
        data = read_board(board)
        if not data:
            raise errors.ToolError(NOTHING_TO_BACK_UP + NOTHING_WRITTEN)
        write_folder(args.folder, normalised(data), args.force)
        say(
            "backed up %s to %s%s"
            % (
                " and ".join(describe(name, blob) for name, blob in data.items()),
                errors.shown(args.folder),
                " (the backup that was there is replaced)" if existed else "",
            )
        )
        return 0

    return with_board(args, work)


def cmd_restore(args: argparse.Namespace) -> int:
    from host_tools.backup import check_backup, write_backup

    checked = check_backup(args.folder)  # the whole backup, before the board

    def work(board: Any) -> int:
        write_backup(board, checked)
        say(checked.restored())
        return 0

    return with_board(args, work)
