"""The handles and futures of the async collectives a :class:`._kit_collectives.CollectiveWatch`
watches: :class:`WatchedHandle` wraps the work an async call returns, :class:`WatchedFuture`
its future (``get_future()``, ``then()``, ``torch.futures.wait_all`` and ``collect_all``), so
that each wait counts for its call (``watch.waited``), and an ``is_completed()`` or
``done()`` that answered True counts as a poll. :func:`release` copies an async in-place
collective's result into the rank's tensor at its first wait, or as it ends where its future
was asked for: a read before the wait sees the rank's own values every time.

What it is not: the record of the calls (:mod:`._kit_collectives`).
"""

from __future__ import annotations

import torch

__all__ = ["WatchedFuture", "WatchedHandle", "release"]


def release(call) -> tuple | None:
    """Copy an async in-place collective's result into the rank's tensor, once it is done.
    Returns ``(tensor, the copy it ran on)`` the first time, else None."""
    if call.held is not None:
        (tensor, copy), call.held = call.held, None
        tensor.detach().copy_(copy)
        return tensor, copy
    return None


class WatchedFuture(torch.futures.Future):
    """A watched future: completed with the real one's value; a wait counts for ``calls``."""

    def __init__(self, real, calls: list, watch):
        super().__init__()
        self._calls, self._watch = calls, watch

        def done(finished):
            try:  # as the collective ends its result reaches the tensor, before then()'s
                held = {id(c): t for t, c in filter(None, map(release, calls))}
                value = finished.value()
                value = [held.get(id(v), v) for v in value] if isinstance(value, list) else value
                self.set_result(value)
            except Exception as error:  # noqa: BLE001 (passed on to whoever waits)
                self.set_exception(error)

        real.add_done_callback(done)

    def wait(self):
        for call in self._calls:
            self._watch.waited(call)
        value = super().wait()
        for call in self._calls:
            release(call)  # the collective is done now
        return value

    def done(self):
        finished = super().done()
        for call in self._calls if finished else ():
            self._watch.waited(call, finished=True)
        return finished

    def then(self, callback):
        # the chained future completes after this one: a wait on it waits on these calls too
        return WatchedFuture(super().then(callback), self._calls, self._watch)


class WatchedHandle:
    """A watched async collective's handle: the real one, with its waits counted."""

    def __init__(self, work, call, watch):
        self._work, self._call, self._watch = work, call, watch

    def wait(self, *args, **kwargs):
        self._watch.waited(self._call)
        finished = self._work.wait(*args, **kwargs)
        release(self._call)
        return finished

    def is_completed(self):
        done = self._work.is_completed()
        if done:
            self._watch.waited(self._call, finished=True)
        return done

    def get_future(self):
        return WatchedFuture(self._work.get_future(), [self._call], self._watch)

    def __getattr__(self, name):
        return getattr(self._work, name)
