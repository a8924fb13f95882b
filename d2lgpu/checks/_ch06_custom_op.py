"""``06.slowest_op``'s workload led by an operator outside ``aten::``, with a long name.

The prompt asks for the entry of ``key_averages()`` with the largest self time, whatever its
name. Every other workload is led by an ``aten::`` operator with a short name, so an answer
that keeps only the ``aten::`` entries, or reads the name off the printed table (which cuts a
name longer than its column, 55 characters, to "..."), returns the right name there. Here a
custom operator (``torch.library``, registered once per process, for the CPU) computes the
norms of 600 rows one at a time in Python on the host, next to a sum: it takes almost all the
self time, and its name is 64 characters long.

The hints name those two mistakes (:func:`custom_op_miss`); the ranking of the ``aten::``
entries alone, accepted where a stalled autograd node leads (``self_rankings``), is not
accepted where an operator of another namespace leads (:func:`other_namespace`).

What it is not: the checker; :mod:`d2lgpu.checks.ch06_performance` runs it with the others.
"""

from __future__ import annotations

import math
import re

import torch

__all__ = ["CUSTOM_OP", "custom_op_miss", "custom_op_workload", "other_namespace"]

_NAMESPACE, _NAME = "d2lgpu_checks", "row_norms_one_row_at_a_time_in_python_on_the_host"
CUSTOM_OP = f"{_NAMESPACE}::{_NAME}"
_TABLE_WIDTH = 55  # torch's key_averages().table() cuts a longer name to its first 52 and "..."
_library = None  # the torch.library.Library that holds the operator, kept alive


def _row_norms(rows: torch.Tensor) -> torch.Tensor:
    """The operator's kernel: each row's norm, one number at a time in Python."""
    norms = [math.sqrt(sum(v * v for v in row)) for row in rows.tolist()]
    return torch.tensor(norms, dtype=rows.dtype)


def _operator():
    """The custom operator, registered the first time it is asked for."""
    global _library
    if _library is None:
        try:  # already registered in this process, by an earlier copy of this module
            return getattr(getattr(torch.ops, _NAMESPACE), _NAME)
        except (AttributeError, RuntimeError):
            pass
        library = torch.library.Library(_NAMESPACE, "FRAGMENT")
        library.define(f"{_NAME}(Tensor rows) -> Tensor")
        library.impl(_NAME, _row_norms, "CPU")
        _library = library
    return getattr(getattr(torch.ops, _NAMESPACE), _NAME)


def custom_op_workload():
    """``(fn, args, the operator wanted, what it is, hints)``, as ``_ch06_workloads``' are;
    the hints are a function of the name returned and the answer's own table."""
    norms = _operator()
    rows = torch.randn(600, 64, generator=torch.Generator().manual_seed(9))

    def norms_and_a_sum(rows):
        return norms(rows), rows.sum()

    what = f"a custom operator ({CUSTOM_OP}) that computes 600 row norms in Python, and a sum"
    return norms_and_a_sum, (rows,), CUSTOM_OP, what, custom_op_miss


def other_namespace(key: str) -> bool:
    """Whether ``key`` names an operator of a namespace other than ``aten`` (``ns::name``):
    a custom operator's entry, where an autograd node's or a label's is none."""
    match = re.fullmatch(r"(\w+)::\w+(?:\.\w+)?", key)
    return match is not None and match.group(1) != "aten"


def custom_op_miss(got: str, table) -> str | None:
    """The hint for ``got`` on the custom operator's workload, where its mistake is one this
    workload tells: the name cut as the printed table cuts it, or the ``aten::`` entries
    ranked alone (``got`` leads them in the answer's own ``table``)."""
    short = got.rstrip(".").rstrip()
    if got != CUSTOM_OP and len(short) >= 8 and CUSTOM_OP.startswith(short):
        return (
            f"you returned {got!r}, the first {len(short)} characters of {CUSTOM_OP}, the "
            f"entry with the most self time: its name, {len(CUSTOM_OP)} characters long, was "
            f"cut, as key_averages().table() cuts any name longer than {_TABLE_WIDTH} "
            "characters. Return the entry's .key, not text read off the printed table"
        )
    aten = [e for e in table or () if e.key.startswith("aten::")]
    top = max((e.self_cpu_time_total for e in aten), default=0)
    if got.startswith("aten::") and any(
        e.key == got and top > 0 and e.self_cpu_time_total >= top for e in aten
    ):
        return (
            f"you returned {got}, the aten:: operator with the most self time, but the entry "
            f"with the most self time is {CUSTOM_OP}, an operator of another namespace (a "
            "custom operator): rank every entry of key_averages(), whatever its name, not "
            "only the aten:: ones"
        )
    return None
