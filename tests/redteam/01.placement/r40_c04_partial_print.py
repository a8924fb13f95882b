# expect: pass functools.partial over a generic round-robin with a late-bound device source, prints the placement
# hint: 
# name: place_workers
import functools

import d2lgpu


def _round_robin(n_workers, *, devices_of):
    devices = devices_of()
    placed = [devices[i % len(devices)] for i in range(n_workers)]
    print(f"{n_workers} workers on {[str(d) for d in placed]}")
    return placed


place_workers = functools.partial(_round_robin, devices_of=lambda: d2lgpu.try_all_gpus())
