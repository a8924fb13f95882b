# expect: fail caches the result per n_workers between calls, so a call after the GPU count changes returns the old placement
# hint: cach|memo|each call|every call|stale|previous call|earlier call|same result
import functools

import d2lgpu


@functools.lru_cache(maxsize=None)
def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


answer = place_workers
