"""What differs between the torch versions the course supports (2.11 and newer).

A lesson cell calls one of these functions instead of branching on torch's version
itself, so the lesson reads the same on every torch. Each docstring says what each torch
version does. Nothing here makes a CUDA call at import.
"""

from __future__ import annotations

import os
import subprocess
import sys

import torch

__all__ = ["allocator_settings", "empty_host_cache", "selective_checkpoint_hook_kwargs"]


def empty_host_cache() -> bool:
    """Give PyTorch's cached pinned host blocks back to the driver; whether this torch can.

    ``pin_memory()`` takes page-locked memory from the driver (``cudaHostAlloc``), and when
    a pinned tensor is freed PyTorch keeps its block cached for the next pin of that size.
    Once the cache is emptied, the next ``pin_memory()`` is a first pin again: it asks the
    driver for new page-locked memory.

    - torch newer than 2.11 (the lock's torch among them) has
      ``torch.accelerator.empty_host_cache()``: it is called, and True returned. Without a
      GPU nothing is cached and the call does nothing.
    - torch 2.11 has no such function: nothing is freed, and False is returned, so a block
      cached earlier may serve the next pin.
    """
    empty = getattr(torch.accelerator, "empty_host_cache", None)  # newer than torch 2.11
    if empty is None:
        return False
    empty()
    return True


def allocator_settings(conf: str, *, timeout: float = 300) -> str | None:
    """What PyTorch makes of ``PYTORCH_CUDA_ALLOC_CONF=conf``, read back with no GPU needed.

    The caching allocator reads the variable once, when it is first needed, so the settings
    are read in a fresh Python started with ``conf`` set (and ``PYTORCH_ALLOC_CONF``, the
    newer name, unset). Returns what PyTorch parsed, as it prints it
    (``"expandable_segments:True"``), or the last line of the error it raised for a setting
    it refuses (``"ValueError: Unrecognized key 'expandable_segment' ..."``).

    - torch newer than 2.11 (the lock's torch among them) reads them back through its
      private ``torch._C._accelerator_getAllocatorSettings()``.
    - torch 2.11 can read them back only from a GPU's allocator: None is returned, and no
      process is started.
    """
    if not isinstance(conf, str):
        raise TypeError(
            f"conf must be the text of PYTORCH_CUDA_ALLOC_CONF (a str), not {type(conf).__name__}"
        )
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if not hasattr(torch._C, "_accelerator_getAllocatorSettings"):  # newer than torch 2.11
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTORCH_ALLOC_CONF"}
    env["PYTORCH_CUDA_ALLOC_CONF"] = conf  # read at the start of the fresh process
    code = "import torch; print(torch._C._accelerator_getAllocatorSettings())"
    child = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout
    )
    if child.returncode == 0:
        return child.stdout.strip()
    said = child.stderr.strip().splitlines()
    return said[-1] if said else f"the fresh Python exited with status {child.returncode}"


def selective_checkpoint_hook_kwargs() -> dict[str, bool]:
    """Keyword arguments for ``torch.utils.checkpoint.checkpoint`` that let the
    ``saved_tensors_hooks`` around a selective checkpoint see what it keeps.

    A selective checkpoint (``context_fn`` made with
    ``create_selective_checkpoint_contexts(policy)``) keeps the outputs its policy marks
    ``MUST_SAVE`` in a cache of its own, outside the autograd graph, so the pack hooks of a
    surrounding ``torch.autograd.graph.saved_tensors_hooks`` (``d2lgpu.memory.saved_for_backward``,
    ``save_on_cpu``) do not see them by default. What each torch does:

    - torch 2.11, the course's floor: ``checkpoint`` has no ``respect_saved_tensors_hooks``
      argument; those outputs always bypass the hooks, and no argument changes that.
      Returns ``{}``: ``saved_for_backward`` then counts a selective checkpoint's inputs
      only, not what its policy keeps.
    - torch 2.14, the lock's pin, has it: ``checkpoint(...,
      respect_saved_tensors_hooks=True)`` routes those outputs through the
      hooks like any other saved tensor (pytorch/pytorch#190581). Its default, ``None``,
      keeps the old behaviour and warns (``FutureWarning``) when a hook is in scope, and a
      later release is to change that default (pytorch/pytorch#191236). Returns
      ``{"respect_saved_tensors_hooks": True}``.

    The answer comes from ``checkpoint``'s signature, so it holds for the torch versions in
    between too. Pass the result as
    ``checkpoint(fn, h, use_reentrant=False, context_fn=..., **selective_checkpoint_hook_kwargs())``;
    an empty dict means the hooks cannot count what the policy keeps on this torch.
    """
    import inspect

    from torch.utils import checkpoint as checkpointing

    if "respect_saved_tensors_hooks" in inspect.signature(checkpointing.checkpoint).parameters:
        return {"respect_saved_tensors_hooks": True}
    return {}


# --- DDP's default bucket cap (chapter 10) ---------------------------------------------------

__all__ += ["ddp_default_bucket_cap_mb"]


def ddp_default_bucket_cap_mb() -> int | None:
    """DDP's default ``bucket_cap_mb``, in MiB, read from the installed torch.

    ``DistributedDataParallel(model)`` without ``bucket_cap_mb`` closes its buckets at this
    many MiB (25 in every torch the course supports), and its first bucket at
    ``torch.distributed._DEFAULT_FIRST_BUCKET_BYTES`` (1 MiB), a name every supported torch
    has.

    - torch newer than 2.11 (the lock's torch among them) names the default:
      ``torch.nn.parallel.distributed._DEFAULT_BUCKET_CAP_MB``, which is returned.
    - torch 2.11 writes it as a number inside ``DistributedDataParallel.__init__``
      (``bucket_cap_mb = 25`` when none is given): it is read from that method's source.

    None where neither is found (a torch whose source is not installed, or that sets the
    default some other way).
    """
    import inspect
    import re

    from torch.nn.parallel import distributed as ddp_module

    named = getattr(ddp_module, "_DEFAULT_BUCKET_CAP_MB", None)  # newer than torch 2.11
    if named is not None:
        return int(named)
    try:
        source = inspect.getsource(ddp_module.DistributedDataParallel.__init__)
    except (OSError, TypeError):  # no source installed
        return None
    found = re.search(r"^\s*bucket_cap_mb = (\d+)\s*$", source, re.MULTILINE)
    return int(found.group(1)) if found else None
