# expect: pass
# hint:
# Right: repeats the device list enough times and slices it to n_workers (same order as i % k);
# it also refuses a negative or non-integer n_workers, which the prompt leaves open.
import operator

import d2lgpu


def place_workers(n_workers):
    if isinstance(n_workers, bool):
        raise TypeError("n_workers must be an int, not a bool")
    n_workers = operator.index(n_workers)  # TypeError for 2.5 or "3"
    if n_workers < 0:
        raise ValueError(f"n_workers must be >= 0, got {n_workers}")
    devices = d2lgpu.try_all_gpus()
    rounds = -(-n_workers // len(devices))  # ceil
    return (devices * rounds)[:n_workers]


answer = place_workers
