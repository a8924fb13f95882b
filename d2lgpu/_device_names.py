"""The spelling of ``D2LGPU_DEVICE``: which values name a device the course knows.

What it is for: one rule, used by :func:`d2lgpu.default_device`, by
``python -m d2lgpu env`` and by ``tools/lab.py``, which loads this file by its
path with the system Python, before torch is installed, to stop ``make lab``
on a bad value before a long set-up. So this file imports nothing but the
standard library, and nothing from the package.

The values: ``cpu``, ``cuda`` (GPU 0), ``cuda:N`` (GPU ``N``, a number from 0)
and ``mps`` (Apple silicon's GPU). Case and the spaces around the value are
ignored (``' CPU '`` is ``cpu``), as a shell or a ``.env`` file may add them;
spaces inside it are not (``'cuda: 1'`` is refused). A value that is empty or
only spaces means the variable is not set: the course chooses.

What it is not: a check of what this machine has. ``cuda:7`` is well spelled
on a laptop without a GPU; :mod:`d2lgpu.devices` says that it is not there.
"""

from __future__ import annotations

import re

__all__ = ["ALLOWED", "ENV_VAR", "NOT_KNOWN", "DeviceNameError", "parse_device_name"]

ENV_VAR = "D2LGPU_DEVICE"
ALLOWED = "cpu, cuda, cuda:N, mps"
NOT_KNOWN = f"not a device this course knows (allowed: {ALLOWED})"

# [0-9], not str.isdigit(), which would take '²' or Arabic-Indic digits too.
_SPELLING = re.compile(r"cpu|mps|cuda(:[0-9]+)?")


class DeviceNameError(ValueError):
    """A value of ``D2LGPU_DEVICE`` that cannot be used.

    ``str(error)`` is the whole sentence, naming the variable and the value;
    ``error.value`` is the value as given and ``error.problem`` what is wrong
    with it, without the variable's name (``python -m d2lgpu env`` prints
    ``D2LGPU_DEVICE  <value>: <problem>``).
    """

    def __init__(self, value: str, problem: str, message: str):
        super().__init__(message)
        self.value = value
        self.problem = problem


def parse_device_name(value: str) -> tuple[str, int | None] | None:
    """Read a value of ``D2LGPU_DEVICE``: ``(kind, index)``, or None when it is blank.

    ``kind`` is ``"cpu"``, ``"cuda"`` or ``"mps"``; ``index`` is the GPU's
    number for ``cuda:N`` and None otherwise (``cuda`` alone means GPU 0).

    >>> parse_device_name("cuda:1"), parse_device_name(" CPU"), parse_device_name("")
    (('cuda', 1), ('cpu', None), None)

    Anything else raises :class:`DeviceNameError` (a ``ValueError``)::

        D2LGPU_DEVICE='banana' is not a device this course knows (allowed: cpu, cuda, cuda:N, mps)
    """
    if not isinstance(value, str):
        raise TypeError(f"{ENV_VAR}'s value must be a str, got {type(value).__name__}")
    spelled = value.strip().lower()
    if not spelled:
        return None
    if _SPELLING.fullmatch(spelled) is None:
        raise DeviceNameError(value, NOT_KNOWN, f"{ENV_VAR}={value!r} is {NOT_KNOWN}")
    kind, _, index = spelled.partition(":")
    return kind, int(index) if index else None
