# expect: fail memoizes the result per n_workers with lru_cache, so a later call after the GPU count changes gets the stale list
# hint: cache|each (time|call)|every call|inside|once|stale|changed|GPU count
import functools

import d2lgpu


@functools.lru_cache(maxsize=None)
def _plan(n_workers):
    devs = d2lgpu.try_all_gpus()
    return tuple(devs[i % len(devs)] for i in range(n_workers))


def place_workers(n_workers):
    return list(_plan(n_workers))


answer = place_workers
