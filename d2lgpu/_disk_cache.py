"""Measurements that cost seconds and never change, kept on disk from one Python to the next.

Chapter 11's planner asks torch's memory tracker what a rank of a model holds
(:mod:`d2lgpu._plan_stage`): each answer is the same on every run, CPU or GPU, because the
tracker runs on fake tensors, yet each costs about half a second, and a search over plans
asks dozens. :func:`disk_cached` keeps each answer in a JSON file, so that the chapter's
second run, its exercise and its checker read them back instead of measuring again.

An answer is found only under the same arguments (their ``repr``), the same torch and the
same text of the modules that measured it (``sources``): change the model or the tracker's
code, or upgrade torch, and it is measured afresh. The folder is ``$D2LGPU_CACHE_DIR``, else
``$XDG_CACHE_HOME/d2lgpu``, else ``~/.cache/d2lgpu``; ``D2LGPU_CACHE_DIR=off`` measures every
time. So does a mutation run (``MUTANT_UNDER_TEST`` set: every mutant shares one file's text).
A folder that cannot be written, or a damaged file, only costs the measurement again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import torch

__all__ = ["CACHE_ENV_VAR", "cache_dir", "disk_cached"]

CACHE_ENV_VAR = "D2LGPU_CACHE_DIR"
_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """Where answers are kept, or None when they are not (``off``, or a mutation run)."""
    chosen = os.environ.get(CACHE_ENV_VAR, "")
    if chosen.strip().lower() == "off" or os.environ.get("MUTANT_UNDER_TEST"):
        return None
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "d2lgpu"


def _read(path: Path) -> dict:
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return stored if isinstance(stored, dict) else {}


def _write(path: Path, stored: dict) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")  # this process's own
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(stored))
        os.replace(partial, path)  # whole or not at all, for a process reading it meanwhile
    except OSError:
        with contextlib.suppress(OSError):  # a folder that cannot be written: measured again
            partial.unlink(missing_ok=True)


def disk_cached(*sources: str) -> Callable[[Callable], Callable]:
    """Keep ``fn``'s answers (JSON: numbers, strings, lists, dicts with string keys) on disk.

    ``sources``: the files of ``d2lgpu/`` whose code decides the answer, besides torch."""

    def decorate(fn: Callable) -> Callable:
        @functools.cache
        def file_name() -> str:
            digest = hashlib.sha256(torch.__version__.encode())
            for name in sources:
                digest.update((_PACKAGE / name).read_bytes())
            return f"{fn.__module__}.{fn.__qualname__}-{digest.hexdigest()[:16]}.json"

        @functools.wraps(fn)
        def cached(*args, **kwargs):
            folder = cache_dir()
            if folder is None:
                return fn(*args, **kwargs)
            path, key = folder / file_name(), repr((args, sorted(kwargs.items())))
            stored = _read(path)
            if key in stored:
                return stored[key]
            value = json.loads(json.dumps(fn(*args, **kwargs)))  # the same types, read back or not
            stored = _read(path)  # another process may have added answers meanwhile
            stored[key] = value
            _write(path, stored)
            return value

        return cached

    return decorate
