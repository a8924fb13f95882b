# expect: pass generator function that deals devices in turn, collected with list()
# hint: 
import d2lgpu


def _deal(n_workers, devices):
    worker = 0
    while worker < n_workers:
        yield devices[worker % len(devices)]
        worker += 1


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return list(_deal(n_workers, d2lgpu.try_all_gpus()))


answer = place_workers
