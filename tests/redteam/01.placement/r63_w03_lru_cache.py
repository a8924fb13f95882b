# expect: fail memoizes the result per n_workers, so a later call with the same count returns a stale list
# hint: cache|memo|lru|stale|second call|same n_workers|each (time|call)|every call|reuse|changed
# Wrong: functools.lru_cache keys only on n_workers; when what PyTorch reports changes, the same
# n_workers still returns the list computed for the old machine.
import functools

import d2lgpu


@functools.lru_cache(maxsize=None)
def _placement(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    return list(_placement(n_workers))


answer = place_workers
