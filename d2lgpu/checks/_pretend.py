"""The checkers' pretend GPU: :func:`watching`, a device watch in force for one answer.

The watch itself lives in :mod:`d2lgpu._device_watch`, below both the checkers
and the simulated GPU of :mod:`d2lgpu.stream_sim`. This module adds what only
the checkers need: ``torch.cuda.synchronize`` recorded as a host read; the answer's tensor
hooks (``register_hook``, ``register_post_accumulate_grad_hook``) and saved-tensor hooks
(``torch.autograd.graph.save_on_cpu``) run under the watch, since autograd runs them where
no ``TorchFunctionMode`` is active (a ``.item()`` or ``.cpu()`` there would go unseen; a
pack hook's reads are recorded as :data:`SAVED_TO_HOST`); and on a real GPU
:func:`cuda_sync_counter`, the synchronizations CUDA itself reports.
"""

from __future__ import annotations

import threading
import warnings
from contextlib import contextmanager

import torch

from .._device_watch import DeviceWatch
from ._kit import patched

__all__ = ["SAVED_TO_HOST", "cuda_sync_counter", "watching"]

# how a host read made by a saved-tensor pack hook is recorded (save_on_cpu's .cpu())
SAVED_TO_HOST = "a tensor saved for backward copied to the host (saved_tensors_hooks)"


_KEPT: dict = {}  # the pretend GPUs' marks of tensors still alive when the last watch ended


@contextmanager
def watching(pretend: bool):
    """A :class:`DeviceWatch` in force, with ``torch.cuda.synchronize`` recorded as a read."""
    watch = DeviceWatch(pretend)
    # A tensor an earlier watch put on a pretend GPU is still there (a cache the answer keeps
    # between calls holds GPU tensors on a real GPU): its mark goes on from watch to watch
    watch._marked.update(_KEPT)
    watch.carried = {k: ref for k, (ref, _) in _KEPT.items()}
    saved = torch.cuda.synchronize

    def synchronize(*args, **kwargs):
        watch.reads.append("torch.cuda.synchronize()")
        watch.synced()
        if not pretend:
            saved(*args, **kwargs)

    def watched_hooks(name):
        register = getattr(torch.Tensor, name)

        def hooked(tensor, hook):
            def run(*args):
                if torch._C._len_torch_function_stack():  # the watch sees this call already
                    return hook(*args)
                device = watch.device_of(tensor)  # a gradient is on its tensor's device
                for t in args if pretend and device is not None else ():
                    watch.put(t, device)
                with watch:  # inside backward: no mode is active there
                    return hook(*args)

            return register(tensor, run)

        return (torch.Tensor, name, hooked)

    def under_watch(hook, relabel=False):
        def run(arg):
            if torch._C._len_torch_function_stack():  # the watch sees this call already
                return hook(arg)
            before = len(watch.reads)
            with watch:  # inside an operation or backward: no mode is active there
                result = hook(arg)
            if relabel:
                watch.reads[before:] = [SAVED_TO_HOST] * (len(watch.reads) - before)
            return result

        return run

    saved_enter = torch.autograd.graph.saved_tensors_hooks.__enter__

    def enter(hooks):  # saved_tensors_hooks (save_on_cpu, ...): their hooks run under the watch
        pack, unpack = hooks.pack_hook, hooks.unpack_hook
        hooks.pack_hook, hooks.unpack_hook = under_watch(pack, True), under_watch(unpack)
        try:
            return saved_enter(hooks)
        finally:
            hooks.pack_hook, hooks.unpack_hook = pack, unpack

    boot = threading.Thread._bootstrap_inner  # type: ignore[attr-defined]

    def booted(thread):  # a thread started under the watch (a pool's worker) runs under it too
        with watch:
            return boot(thread)

    hooks = ("register_hook", "register_post_accumulate_grad_hook")
    with (
        patched(
            (threading.Thread, "_bootstrap_inner", booted),
            (torch.cuda, "synchronize", synchronize),
            (torch.autograd.graph.saved_tensors_hooks, "__enter__", enter),
            *map(watched_hooks, hooks),
        ),
        watch,
    ):
        try:
            yield watch
        finally:
            _KEPT.clear()
            _KEPT.update((k, v) for k, v in watch._marked.items() if v[0]() is not None)


SYNC_WARNING = "called a synchronizing CUDA operation"  # c10::cuda::warn_or_error_on_sync


@contextmanager
def cuda_sync_counter(device: torch.device):
    """Count the synchronizing CUDA calls (``set_sync_debug_mode``); yields a list of messages."""
    found: list[str] = []
    if device.type != "cuda":
        yield found
        return
    previous = torch.cuda.get_sync_debug_mode()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            yield found
        finally:
            torch.cuda.set_sync_debug_mode(previous)
    # Only CUDA's per-call warning: the first set_sync_debug_mode of a process also warns, once,
    # that the mode "does not yet detect all synchronizing operations", which is no sync.
    found += [str(w.message) for w in caught if SYNC_WARNING in str(w.message)]
