"""A time limit for a check, which stops only the learner's code.

``with time_limit(60): checker(answer, passed)`` raises :class:`AnswerTimedOut`
in the learner's code once 60 seconds have passed: an endless loop in an
answer ends the check with a clear report instead of hanging the notebook.

The exception is raised only while the learner's own code (or a library it
called) runs, never inside the checker or the course's code, so the checker's
clean-up (restoring a patched function, a thread count, a ``TorchFunctionMode``)
always runs to its end. It derives from ``BaseException``, so an answer's
``except Exception:`` does not swallow it, and it is raised again every
0.2 s until the learner's code has returned.

On POSIX in the main thread (a notebook's kernel, pytest) the clock is
``SIGALRM``, which also interrupts ``time.sleep`` and blocking reads; an outer
``SIGALRM`` timer (pytest-timeout) is put back afterwards. Elsewhere a
watchdog thread raises the exception with ``PyThreadState_SetAsyncExc``.

What it is not: a sandbox. Code that blocks inside one long C call is stopped
when that call returns. On CPython 3.11, a profiler (``sys.setprofile``) in force
when the ``SIGALRM`` handler is called was seen to make the handler spin on its
first line for ever: the checkers install none (:func:`._kit_code.runs_of` swaps
code instead), and the test suite's own time-out is a thread, which still ends.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
from contextlib import contextmanager

from .._validate import check_positive
from ._util import learner_is_running

__all__ = ["AnswerTimedOut", "time_limit", "remaining_s"]

_RETRY_S = 0.2
_active: list[float] = []  # the deadlines of the time limits in force, innermost last


class AnswerTimedOut(BaseException):
    """Raised in the learner's code when a check runs past its time limit."""

    def __init__(self, seconds: float = 0.0):  # no argument when raised by the watchdog
        super().__init__(f"stopped after {seconds:g} s" if seconds else "stopped")
        self.seconds = seconds


def remaining_s() -> float | None:
    """Seconds left before the innermost time limit in force, or None if there is none."""
    return _active[-1] - time.monotonic() if _active else None


@contextmanager
def time_limit(seconds: float):
    """Stop the learner's code with :class:`AnswerTimedOut` after ``seconds``.

    Yields a dict whose ``"raised"`` entry counts how often the exception was
    raised (0 when the block ended in time, or ran late only in the course's code).
    """
    check_positive("seconds", seconds)
    state = {"raised": 0, "deadline": time.monotonic() + seconds}
    use_signal = (
        hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    )
    _active.append(state["deadline"])
    try:
        with _alarm(seconds, state) if use_signal else _watchdog(seconds, state):
            yield state
    finally:
        _active.pop()


@contextmanager
def _alarm(seconds: float, state: dict):
    start = time.monotonic()
    outer_delay, outer_interval = signal.getitimer(signal.ITIMER_REAL)
    outer_deadline = start + outer_delay if outer_delay else None

    def on_alarm(signum, frame):
        now = time.monotonic()
        if outer_deadline is not None and now >= outer_deadline and callable(outer_handler):
            signal.setitimer(signal.ITIMER_REAL, 0)
            outer_handler(signum, frame)  # the outer timer's turn (pytest-timeout)
            return
        if now < state["deadline"]:  # woken for the outer timer, which is still ahead
            signal.setitimer(signal.ITIMER_REAL, state["deadline"] - now)
            return
        signal.setitimer(signal.ITIMER_REAL, _RETRY_S)
        if learner_is_running(frame):
            state["raised"] += 1
            raise AnswerTimedOut(seconds)

    outer_handler = signal.signal(signal.SIGALRM, on_alarm)
    first = seconds if outer_deadline is None else min(seconds, outer_delay)
    signal.setitimer(signal.ITIMER_REAL, first)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, outer_handler)
        if outer_deadline is not None:
            left = max(outer_deadline - time.monotonic(), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)


@contextmanager
def _watchdog(seconds: float, state: dict):
    target = threading.get_ident()
    done = threading.Event()

    def watch():
        if done.wait(seconds):
            return
        while not done.is_set():
            frame = sys._current_frames().get(target)
            if frame is not None and learner_is_running(frame):
                state["raised"] += 1
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(target), ctypes.py_object(AnswerTimedOut)
                )
            done.wait(_RETRY_S)

    watcher = threading.Thread(target=watch, name="d2lgpu-check-time-limit", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        # An exception scheduled just before the block ended must not land after it.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
