# expect: fail keeps a round-robin counter across calls, so a second call starts where the previous one stopped instead of at cuda:0
# hint: state|counter|each call|every call|previous call|earlier call|start|first (worker|device)|cuda:0|order|global
import d2lgpu

_next = 0  # the scheduler's position in the ring of devices


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    global _next
    devices = d2lgpu.try_all_gpus()
    placed = []
    for _ in range(n_workers):
        placed.append(devices[_next % len(devices)])
        _next += 1
    return placed


answer = place_workers
