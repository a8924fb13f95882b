# expect: fail asks try_all_gpus() once at import, not inside the function at each call
# hint: (inside|each call|every call|import|once|module level|at call)
# name: place_workers
import d2lgpu

DEVICES = d2lgpu.try_all_gpus()  # asked once


def place_workers(n_workers):
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]
