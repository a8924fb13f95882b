# expect: pass
# hint:
# Right: a callable instance; it asks try_all_gpus() on every call and deals the workers out in turn.
import torch

import d2lgpu


class RoundRobinPlacer:
    def __call__(self, n_workers):
        devices = d2lgpu.try_all_gpus()
        return [devices[i % len(devices)] for i in range(n_workers)]


answer = RoundRobinPlacer()
