# expect: fail caches the answer per n_workers (functools.lru_cache), so a later call does not ask the machine again
# hint: (cache|each call|every call|inside|ask|again|stale)
# name: place_workers
import functools

import d2lgpu


@functools.lru_cache(maxsize=None)
def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))
