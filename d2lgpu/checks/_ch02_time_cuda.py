"""``02.time_fn`` where torch sees a GPU: the given ``sync`` and ``clock``, not torch.cuda's.

A timer that calls ``torch.cuda.synchronize()`` (or times with CUDA events) whenever
``torch.cuda.is_available()`` behaves as a right one on a machine without a GPU, so the
checker also runs it with ``is_available()`` made true. There ``torch.cuda.synchronize``
waits for nothing of the checker's device, and CUDA's events and streams are refused by name:
the work given runs wherever ``sync`` and ``clock`` say, which need not be the current GPU's
stream (another stream, another GPU, the CPU, the checker's simulated device).
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ._kit import patched
from ._util import CheckFailed

__all__ = ["check_given_sync_used"]

_WHERE = "where torch.cuda.is_available() is True (a machine with a GPU)"
_GIVEN = (
    "time_fn is given the work's own sync() and clock(): call those, whatever the machine, "
    "and no torch.cuda function (the work may run on another stream, another GPU, the CPU, "
    "or a simulated device, which only the given sync() waits for)"
)


class _CudaTimed(BaseException):
    """A CUDA event or stream asked for; a BaseException, so that ``except Exception``
    in the answer does not hide it."""


def _refused(name: str) -> Callable[..., None]:
    def call(*args, **kwargs) -> None:
        raise _CudaTimed(name)

    return call


def check_given_sync_used(answer, run_timer, device, seconds: float, repeats: int = 5) -> None:
    """Time ``device`` (a job of ``seconds``) with ``run_timer(answer, device, repeats)``
    while ``torch.cuda.is_available()`` is true: torch.cuda's synchronize is recorded and
    does nothing; its events and streams are refused."""
    synced: list[object] = []

    def synchronize(device=None) -> None:
        synced.append(device)

    changes = [
        (torch.cuda, "is_available", lambda: True),
        (torch.cuda, "device_count", lambda: 1),
        (torch.cuda, "synchronize", synchronize),
        *((torch.cuda, name, _refused(f"torch.cuda.{name}")) for name in
          ("Event", "Stream", "current_stream", "default_stream", "stream")),
    ]  # fmt: skip
    try:
        with patched(*changes):
            got = run_timer(answer, device, repeats)
    except _CudaTimed as used:
        raise CheckFailed(f"{_WHERE}, your time_fn called {used}: {_GIVEN}") from None
    except CheckFailed as failed:
        raise CheckFailed(_synced_hint(synced) or f"{_WHERE}: {failed.hint}") from None
    except Exception as error:
        raise CheckFailed(
            _synced_hint(synced)
            or f"{_WHERE}, your time_fn raised {type(error).__name__}: {error}. {_GIVEN}"
        ) from None
    if abs(got - seconds) > 0.05 * seconds:
        raise CheckFailed(
            _synced_hint(synced)
            or f"{_WHERE}, time_fn returned {got:.6g} s for work that takes {seconds:g} s: {_GIVEN}"
        )


def _synced_hint(synced: list[object]) -> str | None:
    if not synced:
        return None
    return (
        f"{_WHERE}, your time_fn called torch.cuda.synchronize() ({len(synced)} times) "
        f"in place of the sync() it was given: {_GIVEN}"
    )
