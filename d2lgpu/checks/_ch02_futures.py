"""The futures of checker ``02.concurrency``'s lanes (:mod:`._ch02_lanes`): a logged one,
whose ``result()`` is a wait in the lanes' log, and a late one, whose work runs only when its
result is first asked for. Both promise ``result()`` alone, with no arguments, as the
chapter's ``CudaFuture`` does.
"""

from __future__ import annotations

import threading

__all__ = ["LateLane", "LoggedFuture", "no_arguments"]


class _Depth(threading.local):
    depth = 0  # the jobs of any logging lane running on this thread, of this run or another


_IN_A_JOB = _Depth()


def no_arguments(args, kwargs) -> None:
    """Raise TypeError where a future's ``result()`` was given arguments: a lane promises
    ``result()`` alone, and the course's ``CudaFuture.result()`` takes none."""
    if args or kwargs:
        given = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        raise TypeError(
            f"result({given}): a lane's future promises result() with no arguments, and the "
            "lane for GPUs, CudaFuture, takes none (a timeout is ThreadPoolExecutor's only, "
            "and fails there). Call result()"
        )


class LoggedFuture:
    """A finished future whose ``result()`` counts as a wait, and so does ``exception()``, which
    a thread pool's future has; nothing else, as a lane's future promises only ``result()``
    (the course's ``CudaFuture`` has no ``done()``)."""

    def __init__(self, lane, value):
        self._lane, self._value = lane, value

    def result(self, *args, **kwargs):
        no_arguments(args, kwargs)
        self._lane.log.append(("wait", self._lane.name, _job(self._lane.log)))
        return self._value

    def exception(self, timeout=None):
        """As a thread pool's future: waits for the work, like ``result()``; None, it raised
        nothing. The wait is named by this call in a hint."""
        log = self._lane.log
        getattr(log, "called", {})[len(log)] = ".exception()"
        log.append(("wait", self._lane.name, _job(log)))

    @property
    def value(self):
        """As the chapter's ``CudaFuture.value``: the tensor the lane's work writes, read
        without waiting for it (no wait is logged)."""
        return self._value

    def __getattr__(self, name):
        if name.startswith("__"):  # copy, pickle and friends look for these: not the answer's
            raise AttributeError(name)
        used = (
            "concurrent.futures.wait() or as_completed(), which need a concurrent.futures.Future,"
            if name.startswith("_")
            else f"{name}(), which"
        )
        raise AttributeError(
            f"a lane's future has no {name!r}: {used} the chapter's CudaFuture does not offer. "
            "A lane's future promises only result(), which waits for the work and returns its "
            "value: call .result() on each future, after both launches"
        )


def _job(log) -> str | None:
    """The lane whose submitted job is running now, or None: the caller's own code."""
    running = getattr(log, "running", None)
    return running[-1] if running else None


class LateLane:
    """A lane that runs each submitted function only when its result is first asked for, as
    a busy thread pool may start it late: a function that reads a loop variable when it
    runs (late binding) then sees that variable's last value."""

    def submit(self, fn, *args, **kwargs):
        done: list = []

        class LateFuture:
            def result(self, *given, **named):
                no_arguments(given, named)
                if not done:
                    done.append(fn(*args, **kwargs))
                return done[0]

            def exception(self, timeout=None):
                self.result()

        return LateFuture()
