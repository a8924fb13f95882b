"""Costly set-up made once for the whole pytest session, whichever process needs it first.

`make check` spreads the unit tests over pytest-xdist processes test by test, so the tests
that share a costly set-up (a torchrun launch, a Python process that grades many answers)
land in different processes. A module- or session-scoped fixture would then run once per
process. :func:`once_per_session` runs it once: every process of a session has its own base
temporary folder inside one that they all share; the first to ask makes the result there,
under a file lock, and records it; the others wait on the lock and read the record.

A failed set-up records its error instead: the other processes fail at once with it, rather
than making it again (a set-up that timed out would then cost its time twice, and the second
wait could end as a pytest timeout that hides the first error).
"""

import json
import os
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock


def shared_folder(tmp_path_factory) -> Path:
    """The temporary folder that every pytest-xdist process of this session shares."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_session(tmp_path_factory, name: str, make: Callable[[Path], object]):
    """``make(folder)`` run once per session; returns ``(folder, what make returned)``.

    ``folder`` is an empty folder ``name`` in the shared temporary folder, for the files the
    set-up writes. What ``make`` returns must be JSON (it is read back by the other
    processes), and the same JSON round trip is applied in the process that made it, so
    every caller gets the same types. If ``make`` raised, every later caller raises a
    RuntimeError with that error."""
    shared = shared_folder(tmp_path_factory)
    folder, record = shared / name, shared / f"{name}.json"
    failed = shared / f"{name}.failed"
    with FileLock(str(shared / f"{name}.lock")):
        if failed.is_file():
            raise RuntimeError(
                f"the shared set-up {name!r} failed in another pytest process: "
                + failed.read_text()
            )
        if not record.is_file():
            folder.mkdir()
            try:
                made = json.dumps(make(folder))
            except BaseException as error:  # pytest's own failures and timeouts too
                failed.write_text(f"{type(error).__name__}: {error}")
                raise
            partial = shared / f"{name}.json.partial"
            partial.write_text(made)
            os.replace(partial, record)  # whole or not at all, for the processes waiting
        return folder, json.loads(record.read_text())
