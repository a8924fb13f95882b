"""What differs between the torch versions the course supports (2.11 and newer).

A lesson cell calls one of these functions instead of branching on torch's version
itself, so the lesson reads the same on every torch. Each docstring says what each torch
version does. Nothing here makes a CUDA call at import.
"""

from __future__ import annotations

__all__: list[str] = []


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
