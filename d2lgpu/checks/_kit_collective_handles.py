"""The handles and futures of the async collectives a :class:`._kit_collectives.CollectiveWatch`
watches: :class:`WatchedHandle` wraps the work an async call returns, :class:`WatchedFuture`
its future (``get_future()``, ``then()``, ``torch.futures.wait_all`` and ``collect_all``), so
that each wait counts for its call (``watch.waited``), and an ``is_completed()`` or
``done()`` that answered True counts as a poll. Each future ``then()`` returns is kept in the
watch's ``chained``, ``covered`` once a wait reaches it (on it, or on a future chained after
it): a wait on the call's own handle or future can return before the callback has run. :func:`release` copies an async in-place
collective's result into the rank's tensor at its first wait, or as it ends where its future
was asked for: a read before the wait sees the rank's own values every time.

What it is not: the record of the calls (:mod:`._kit_collectives`).
"""

from __future__ import annotations

import torch

__all__ = ["Reach", "WatchedFuture", "WatchedHandle", "release"]


def release(call) -> tuple | None:
    """Copy an async in-place collective's result into the rank's tensor, once it is done,
    noting (``call.written``) whether the tensor was written since the launch, which on a GPU
    or with gloo races the collective. Returns ``(tensor, the copy it ran on)`` the first
    time, else None."""
    if call.held is not None:
        (tensor, copy, launched), call.held = call.held, None
        call.written = not _same(tensor.detach(), launched)
        tensor.detach().copy_(copy)
        return tensor, copy
    return None


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether ``a`` holds ``b``'s values exactly, NaN where ``b`` has NaN (memory from
    ``torch.empty`` may hold NaN, which equals nothing)."""
    if not a.is_floating_point() and not a.is_complex():
        return torch.equal(a, b)
    return torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)


class Reach:
    """Whether a wait reached a watched future: on it, or on one chained after it (``after``
    are the futures it was chained after, or joined from). The watch keeps these, not the
    futures, whose values it would keep alive."""

    def __init__(self, calls: list, after: tuple = ()):
        self.calls, self.after, self.covered = calls, after, False

    def cover(self) -> None:
        self.covered = True
        for earlier in self.after:  # done before this one: a wait here waits on them too
            earlier.cover()


class WatchedFuture(torch.futures.Future):
    """A watched future: completed with the real one's value; a wait counts for ``calls``.
    ``after``: the :class:`Reach` of the futures it completes after."""

    def __init__(self, real, calls: list, watch, after: tuple = ()):
        super().__init__()
        self.calls, self._watch, self.reach = calls, watch, Reach(calls, after)

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
        for call in self.calls:
            self._watch.waited(call)
        value = super().wait()
        self.reach.cover()
        for call in self.calls:
            release(call)  # the collective is done now
        return value

    def done(self):
        finished = super().done()
        for call in self.calls if finished else ():
            self._watch.waited(call, finished=True)
        if finished:
            self.reach.cover()
        return finished

    def then(self, callback):
        # the chained future completes after this one: a wait on it waits on these calls too
        chained = WatchedFuture(super().then(callback), self.calls, self._watch, (self.reach,))
        self._watch.chained.append(chained.reach)
        return chained


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
