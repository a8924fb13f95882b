# expect: pass a class instance with __call__ that cycles over try_all_gpus() with itertools.islice
# hint:
import itertools

import d2lgpu


class RoundRobinPlacer:
    """Places workers in turn on the devices the machine has at each call."""

    def __init__(self, devices_of=None):
        self._devices_of = devices_of

    def __call__(self, n_workers):
        devices = (self._devices_of or d2lgpu.try_all_gpus)()
        return list(itertools.islice(itertools.cycle(devices), n_workers))


place_workers = RoundRobinPlacer()
answer = place_workers
