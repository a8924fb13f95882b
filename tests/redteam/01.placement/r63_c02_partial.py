# expect: pass
# hint:
# Right: functools.partial binds the helper *function* (not a list it returned), so the devices
# are asked for on each call; a plain loop builds the round-robin list.
import functools

import d2lgpu


def _round_robin(get_devices, n_workers):
    devices = get_devices()
    out = []
    slot = 0
    for _ in range(n_workers):
        out.append(devices[slot])
        slot += 1
        if slot == len(devices):
            slot = 0
    return out


place_workers = functools.partial(_round_robin, d2lgpu.try_all_gpus)
answer = place_workers
