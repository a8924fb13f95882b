"""What runs in each torchrun rank of the ``05.ddp`` check besides the learner's script: a
recorder of the script's collectives and of how the script ended.

The launch (:mod:`._ch05_launch`) puts a ``sitecustomize.py`` that calls :func:`start` on
the ranks' ``PYTHONPATH``, and names a folder in ``$D2LGPU_CH05_RECORD``. In a rank
(``$RANK`` set; torchrun's own process is left alone), :func:`start` watches the script's
collectives (:class:`._kit_collectives.CollectiveWatch`: DDP's own all-reduces run in C++
and are not seen, so what is seen is the script's own), notes a ``sys.exit`` (its code and
the script's line) and an uncaught error, the files the rank wrote with ``torch.save``,
whether it called ``dist.destroy_process_group``, the backend it joined with and the devices
of the modules it wrapped in DDP, and at exit writes ``rank<RANK>.json`` to that folder: the
collectives, how the script ended (``returned``, ``exit`` or ``error``), ``saves`` and
``loads`` (absolute paths), ``destroyed``, ``backend``, ``gpus``, ``devices``, ``rows`` (the
examples the wrapped model's forwards with grad got) and ``comm_hooks`` (DDP communication hooks).

What it is not: the launch and its hints (:mod:`._ch05_launch`).
"""

from __future__ import annotations

import atexit
import functools
import json
import linecache
import os
import sys
import traceback

__all__ = ["RECORD_ENV_VAR", "SITE", "start"]

RECORD_ENV_VAR = "D2LGPU_CH05_RECORD"
# what the launch writes as the ranks' sitecustomize.py
SITE = "from d2lgpu.checks._ch05_rank import start\n\nstart()\n"


def _script() -> str:
    return os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""


def _frame_in_script(frame) -> dict:
    """The innermost frame of the script from ``frame`` outwards: its line and text."""
    script = _script()
    while frame is not None and os.path.abspath(frame.f_code.co_filename) != script:
        frame = frame.f_back
    if frame is None:
        return {}
    return {"line": frame.f_lineno, "text": linecache.getline(script, frame.f_lineno).strip()}


def start() -> None:
    """In a torchrun rank: record the script's collectives and how it ends (see above)."""
    folder, rank = os.environ.get(RECORD_ENV_VAR), os.environ.get("RANK")
    if not folder or rank is None:
        return
    from d2lgpu.checks._kit_collectives import CollectiveWatch

    watch = CollectiveWatch().__enter__()
    ended: dict = {"how": "returned"}
    state: dict = {"saves": [], "loads": [], "destroyed": False, "backend": None, "gpus": 0,
                   "devices": [], "rows": 0, "comm_hooks": []}  # fmt: skip
    original_exit, original_hook = sys.exit, sys.excepthook

    def exit(code=None):
        ended.clear()
        ended.update({"how": "exit", "code": repr(code), **_frame_in_script(sys._getframe(1))})
        original_exit(code)

    def hook(kind, error, tb):
        frames = [f for f in traceback.extract_tb(tb) if os.path.abspath(f.filename) == _script()]
        where = (
            {"line": frames[-1].lineno, "text": (frames[-1].line or "").strip()} if frames else {}
        )
        ended.clear()
        ended.update({"how": "error", "what": f"{kind.__name__}: {error}"[:400], **where})
        original_hook(kind, error, tb)

    def write():
        calls = [{"kind": c.kind, "shape": list(c.shape), "nbytes": c.nbytes, "phase": c.phase}
                 for c in watch.calls]  # fmt: skip
        with open(os.path.join(folder, f"rank{rank}.json"), "w") as out:
            json.dump({"calls": calls, "ended": ended, **state}, out)

    sys.exit, sys.excepthook = exit, hook
    _watch_the_rest(state, watch)
    atexit.register(write)


def _watch_the_rest(state: dict, watch) -> None:
    """Record in ``state`` the files ``torch.save`` wrote (and how many barriers ``watch`` had
    seen by then) and ``torch.load`` read, ``destroy_process_group``, the backend
    ``init_process_group`` joined with, the devices of the modules DDP wrapped, the rows their
    forwards got and the communication hooks registered."""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    save, destroy, init = torch.save, dist.destroy_process_group, dist.init_process_group
    ddp_init, load = DistributedDataParallel.__init__, torch.load
    hook = DistributedDataParallel.register_comm_hook

    def loading(f, *args, **kwargs):
        if isinstance(f, str | os.PathLike):
            state["loads"].append(os.path.abspath(os.fspath(f)))
        return load(f, *args, **kwargs)

    def hooking(self, *args, **kwargs):  # register_comm_hook(state, hook), or by keyword
        fn = kwargs["hook"] if "hook" in kwargs else args[1] if len(args) > 1 else None
        state["comm_hooks"].append(getattr(fn, "__name__", type(fn).__name__))
        if callable(fn):  # the hook's collectives are DDP's averaging, not the script's own

            @functools.wraps(fn)  # torch reads the hook's signature and name: still the learner's
            def as_ddp(*hook_args):
                watch.phase = "comm hook"
                try:
                    return fn(*hook_args)
                finally:
                    watch.phase = ""

            if "hook" in kwargs:
                kwargs["hook"] = as_ddp
            else:
                args = (*args[:1], as_ddp, *args[2:])
        return hook(self, *args, **kwargs)

    def counting(module, args):  # the rows each training forward (not an evaluation) gets
        if torch.is_grad_enabled() and args and isinstance(args[0], torch.Tensor) and args[0].dim():
            state["rows"] += args[0].shape[0]

    def saving(obj, f, *args, **kwargs):
        if isinstance(f, str | os.PathLike):
            state["saves"].append(os.path.abspath(os.fspath(f)))
            state["barriers_at_save"] = sum(c.kind == "barrier" for c in watch.calls)
        return save(obj, f, *args, **kwargs)

    def destroying(*args, **kwargs):
        state["destroyed"] = True
        return destroy(*args, **kwargs)

    def initializing(*args, **kwargs):
        result = init(*args, **kwargs)
        state["backend"] = str(dist.get_backend()).lower()
        # the GPUs this rank sees: nccl is right when every process has one of its own
        state["gpus"] = torch.cuda.device_count() if torch.cuda.is_available() else 0
        return result

    def wrapping(self, module, *args, **kwargs):
        state["devices"] = sorted({str(p.device) for p in module.parameters()})
        module.register_forward_pre_hook(counting)
        return ddp_init(self, module, *args, **kwargs)

    torch.save, dist.destroy_process_group, dist.init_process_group = (
        saving,
        destroying,
        initializing,
    )
    DistributedDataParallel.__init__ = wrapping  # type: ignore[method-assign]
    DistributedDataParallel.register_comm_hook = hooking  # type: ignore[method-assign,assignment]
    torch.load = loading
