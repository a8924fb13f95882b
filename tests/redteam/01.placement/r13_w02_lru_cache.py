# expect: fail result memoised per n_workers, so a later call with another GPU count gets the stale list
# hint: inside|each (time|call)|every call|per call|once|cach|memo|lru|stale|state|between calls|previous call|changes? what|fake GPU
import functools

import d2lgpu


@functools.lru_cache(maxsize=None)
def _placement(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return list(_placement(n_workers))


answer = place_workers
