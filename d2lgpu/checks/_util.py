"""What every checker shares: the failure it raises, and where a learner's code is.

* :class:`CheckFailed` carries the hint a learner can act on;
  :class:`NotAttempted` says the answer is still the exercise's stub; :class:`RuleBroken`,
  raised in a gloo rank, carries its hint to the parent.
* :func:`in_learner_code` tells the learner's frames (a notebook cell, their
  own module) from the course's and the libraries'; :func:`learner_frame`
  finds, in a traceback, the last line the learner wrote, so that a report
  cites their code and never the checker's.
* :func:`refused_call_hint` names an answer that Python could not call with the
  exercise's arguments (its signature differs), not what it returned.
* :func:`one_cpu_thread` runs a checker with one CPU thread.
* :func:`raised_where` names the learner's line an error was raised in.
* :func:`written_as` writes a submodule's or parameter's name as a learner's code reaches it.
* :func:`gpu_in_a_thread_note` says where a pretended GPU is, for a thread of the learner's
  own that reached for it.

This module imports nothing from the rest of ``d2lgpu``, so any module may
import it.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import sysconfig
import traceback
from contextlib import contextmanager
from pathlib import Path

import torch

__all__ = [
    "CheckFailed",
    "MATRIX_PRODUCTS",
    "NotAttempted",
    "RuleBroken",
    "in_learner_code",
    "is_course_code",
    "learner_frame",
    "learner_is_running",
    "describe_frame",
    "one_cpu_thread",
    "refused_call_hint",
    "refused_call_named",
    "raised_where",
    "written_as",
    "state_left_hint",
]


# A matrix product, each name as a TorchFunctionMode sees the function (``torch.linalg.matmul``
# is ``linalg_matmul``): A @ X may be written with any of them.
MATRIX_PRODUCTS = frozenset(
    {"matmul", "__matmul__", "__rmatmul__", "mm", "addmm", "einsum", "tensordot", "bmm",
     "baddbmm", "linear", "chain_matmul", "multi_dot", "linalg_matmul", "linalg_multi_dot"}
)  # fmt: skip


class CheckFailed(AssertionError):
    """Raised by a checker: ``hint`` tells the learner what to change."""

    def __init__(self, hint: str):
        super().__init__(hint)
        self.hint = hint


class RuleBroken(Exception):
    """In a rank: a rule of the check is broken; the message is the hint."""


class NotAttempted(NotImplementedError):
    """Raised by a checker when the answer is still the exercise as given."""


_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep  # d2lgpu/
_LIBRARIES = tuple(
    {
        str(Path(p).resolve()) + os.sep
        for p in (
            sys.prefix,
            sys.base_prefix,
            sys.exec_prefix,
            sysconfig.get_paths()["stdlib"],
            sysconfig.get_paths()["purelib"],
            sysconfig.get_paths()["platlib"],
            Path(torch.__file__).parents[1],
        )
    }
)


@functools.lru_cache(maxsize=4096)
def _kind(filename: str) -> str:
    """``"course"`` (d2lgpu), ``"library"`` (Python, torch, site-packages) or ``"learner"``.

    Remembered per file name: the watches ask it for every call they see, and resolving a
    path reads the file system each time.
    """
    if filename.startswith("<"):  # <frozen ...>, <string>; but a notebook's cell is a file
        return "learner" if filename.startswith(("<ipython-input", "<stdin>")) else "library"
    try:
        path = str(Path(filename).resolve())
    except (OSError, RuntimeError):
        return "library"
    if path.startswith(_PACKAGE):
        return "course"
    if path.startswith(_LIBRARIES):
        return "library"
    return "learner"


def in_learner_code(filename: str) -> bool:
    """Whether code in ``filename`` is the learner's (not d2lgpu's, Python's or a library's)."""
    return _kind(filename) == "learner"


def is_course_code(filename: str) -> bool:
    """Whether ``filename`` belongs to the d2lgpu package."""
    return _kind(filename) == "course"


def _first_not_a_library(frame):
    """From ``frame`` outwards, the first frame that is not a library's, and its kind."""
    while frame is not None:
        kind = _kind(frame.f_code.co_filename)
        if kind != "library":
            return frame, kind
        frame = frame.f_back
    return None, "library"


def learner_is_running(frame) -> bool:
    """Whether, from ``frame`` outwards, the first frame that is not a library's is the learner's."""
    return _first_not_a_library(frame)[1] == "learner"


def learner_line(frame) -> traceback.FrameSummary | None:
    """The learner's line running, from ``frame`` outwards, when the first frame that is not a
    library's is the learner's (a read inside ``clip_grad_norm_`` names the line calling it)."""
    found, kind = _first_not_a_library(frame)
    if found is None or kind != "learner":
        return None
    code = found.f_code
    return traceback.FrameSummary(code.co_filename, found.f_lineno, code.co_name)


def learner_frame(tb) -> traceback.FrameSummary | None:
    """The innermost frame of traceback ``tb`` that runs the learner's code, or None."""
    frames = [f for f in traceback.extract_tb(tb) if in_learner_code(f.filename)]
    return frames[-1] if frames else None


def describe_frame(frame: traceback.FrameSummary) -> str:
    """``in your function f, line 3: `x = 1 / 0` `` (the line number within the cell or file)."""
    where = "your code" if frame.name == "<module>" else f"your function {frame.name}"
    line = (frame.line or "").strip()
    return f"in {where}, line {frame.lineno}" + (f": `{line}`" if line else "")


# Python's own words when a call does not fit a function's signature (3.10 on name it by its
# qualified name: "step.<locals>.f()", "Opt.__init__()", "Opt()" for a class without one).
_REFUSED = re.compile(
    r"^(?P<name>[\w.<>]+)\(\) (?:takes \d+ positional arguments? but \d+ (?:were|was) given"
    r"|takes (?:no|from \d+ to \d+ positional) arguments?|missing \d+ required "
    r"(?:positional|keyword-only) arguments?|got an unexpected keyword argument"
    r"|got multiple values for argument)"
)


def _names_one_of(name: str, qualname: str) -> bool:
    """Whether ``name``, as Python's message gives it, is ``qualname`` or one of its methods.
    A class sent to a rank by value (``cloudpickle``, where ranks start from the fork server)
    keeps only its bare name there, so ``NoRank`` must also name ``t.<locals>.NoRank.__init__``."""
    if name == qualname or name.startswith(qualname + "."):
        return True
    parts, own = name.split("."), qualname.split(".")
    return parts[-len(own) :] == own or parts[-len(own) - 1 : -1] == own


def _names(answer) -> set[str]:
    """The qualified names of the functions and classes ``answer`` is made of."""
    parts = answer if isinstance(answer, (tuple, list)) else (answer,)
    names = set()
    for part in parts:
        part = getattr(part, "func", part)  # a functools.partial
        if not isinstance(part, type) and not hasattr(part, "__qualname__"):
            part = type(part)  # a callable object: its class's methods
        name = getattr(part, "__qualname__", None)
        if isinstance(name, str):
            names.add(name)
    return names


def refused_call_hint(error: BaseException, answer) -> str | None:
    """The hint when Python refused the checker's call of one of ``answer``'s functions or
    classes before any line of it ran (a signature that differs from the exercise's), or
    None. A call refused inside the learner's own code is theirs to read, as any error."""
    if not isinstance(error, TypeError) or learner_frame(error.__traceback__) is not None:
        return None
    match = _REFUSED.match(str(error))
    if match is None:
        return None
    name = match["name"]
    if not any(_names_one_of(name, n) for n in _names(answer)):
        return None
    return (
        f"your {name}() could not be called as the exercise calls it (TypeError: {error}): "
        "nothing of it ran. Keep the signature of the exercise's starter code: the same "
        "arguments, in the same order, with the same names"
    )


@contextmanager
def refused_call_named(answer):
    """Turn a call of ``answer`` that Python refused (:func:`refused_call_hint`) into a
    :class:`CheckFailed` with that hint; any other error goes on as it was."""
    try:
        yield
    except TypeError as error:
        hint = refused_call_hint(error, answer)
        if hint is None:
            raise
        raise CheckFailed(hint) from None


PRETENDED_GPU = " (a GPU this check pretends is there only in the thread that calls your answer)"
# What torch says where no CUDA exists: only a pretended GPU's caller is sent there.
_NO_CUDA = ("Found no NVIDIA driver", "Torch not compiled with CUDA enabled")
_THREAD_FILES = ("concurrent/futures/thread.py", "/threading.py")


def gpu_in_a_thread_note(error: BaseException) -> str:
    """For an error of a machine without CUDA raised in a thread the learner's code started
    (and raised again where a future's ``result()`` was read): where the pretended GPU is, and
    where a thread's GPU work goes on a real one. Empty for any other error."""
    if not any(words in str(error) for words in _NO_CUDA):
        return ""
    files = [
        frame.filename.replace(os.sep, "/") for frame in traceback.extract_tb(error.__traceback__)
    ]
    if not any(name.endswith(_THREAD_FILES) for name in files):
        return ""
    return (
        f", in a thread your code started{PRETENDED_GPU}. On a GPU, such a thread queues its "
        "work on its own current stream, the default stream unless it enters another, not on "
        "a stream the calling thread chose: queue GPU work from the thread that calls your "
        "function"
    )


def raised_where(error: BaseException) -> str:
    """`` (in your function f, line 3: `x = 1 / 0`)``: the learner's line that ``error``
    was raised in, as a hint's aside; empty where none of its frames is the learner's."""
    frame = learner_frame(error.__traceback__)
    return f" ({describe_frame(frame)})" if frame is not None else ""


_CASE = "_d2lgpu_case"


def mark_case(error: BaseException, where: str) -> None:
    """Name the case (``where``, "n = 1000 in float16") that the learner's code raised
    ``error`` in, for its crash hint (:func:`case_of`); the first case named stays."""
    if not hasattr(error, _CASE):
        setattr(error, _CASE, where)


def case_of(error: BaseException) -> str:
    """``"for n = 1000 in float16, "``: the case :func:`mark_case` named, or empty."""
    where = getattr(error, _CASE, "")
    return f"for {where}, " if where else ""


def written_as(root: str, name: str) -> str:
    """``name`` of ``named_modules()`` or ``named_parameters()`` as code reaches it from
    ``root``: ``0.weight`` under ``mlp`` is ``mlp[0].weight``."""
    return root + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in name.split("."))


def one_cpu_thread(fn):
    """Run a checker with one CPU thread, then restore the learner's setting. The checkers'
    problems are tiny (100 x 100 matrices, small MLPs): several threads only add
    synchronization, and on a busy machine spinning threads can make such code 10-50x slower.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            out = fn(*args, **kwargs)
        finally:
            now = torch.get_num_threads()
            torch.set_num_threads(threads)
        if now != 1:  # the answer's own setting, which the line above just undid
            raise CheckFailed(state_left_hint("your answer", [f"torch.set_num_threads({now})"]))
        return out

    return wrapper


def state_left_hint(what: str, changed: list[str]) -> str:
    """The hint when ``what`` left process-wide settings changed (``changed``, as code)."""
    blocks = "warnings.catch_warnings(), torch.backends.cudnn.flags(...)"
    if any("safe_globals" in c for c in changed):  # weights_only loads build them from then on
        blocks = "with torch.serialization.safe_globals([...]): around the one load that needs it"
    return (
        f"{what} leaves a process-wide setting changed ({', '.join(changed)}): every line run "
        "afterwards anywhere in the program, the caller's too, runs with it. Set it back "
        f"before you return (try/finally), or change it only in a with-block that undoes it "
        f"({blocks})"
    )
