# expect: pass a class instance with __call__ that asks try_all_gpus() at every call
# hint: 
# name: place_workers
import d2lgpu


class RoundRobin:
    """Deal workers to devices in turn, asking the machine at every call."""

    def __call__(self, n_workers):
        devices = d2lgpu.try_all_gpus()
        placed = []
        for worker in range(n_workers):
            placed.append(devices[worker % len(devices)])
        return placed


place_workers = RoundRobin()
