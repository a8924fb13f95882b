# expect: pass functools.partial of a generic round-robin helper, with the device lookup passed as a callable called on each call
# hint:
import functools

import d2lgpu


def _round_robin(n_workers, *, devices_of):
    devices = devices_of()  # asked now, at each call
    return [devices[i % len(devices)] for i in range(n_workers)]


place_workers = functools.partial(_round_robin, devices_of=lambda: d2lgpu.try_all_gpus())
answer = place_workers
