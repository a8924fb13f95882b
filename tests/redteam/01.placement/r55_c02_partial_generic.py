# expect: pass functools.partial of a generic round-robin that takes the device-listing function and calls it per call
# hint:
import functools

import d2lgpu


def round_robin(n_workers, list_devices):
    """n_workers entries cycling over list_devices(), which is asked on every call."""
    devices = tuple(list_devices())
    if not devices:  # try_all_gpus never returns [], but a generic helper should not divide by 0
        raise ValueError("no devices to place workers on")
    out = []
    for worker in range(n_workers):
        out.append(devices[worker % len(devices)])
    return out


answer = functools.partial(round_robin, list_devices=d2lgpu.try_all_gpus)
