# expect: pass functools.partial over a generic round-robin helper, device lister looked up at call time
# hint: 
import functools

import d2lgpu


def round_robin(n_workers, list_devices):
    devices = list_devices()
    out = []
    index = 0
    while len(out) < n_workers:
        out.append(devices[index])
        index = (index + 1) % len(devices)
    return out


place_workers = functools.partial(round_robin, list_devices=lambda: d2lgpu.try_all_gpus())
answer = place_workers
