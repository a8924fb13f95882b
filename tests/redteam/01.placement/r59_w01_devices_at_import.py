# expect: fail asks which devices the machine has once, at import, outside the function, so later calls use a stale device list
# hint: each call|every call|once|import|outside|stale|inside the function|ask.*(again|each)
import d2lgpu

DEVICES = d2lgpu.try_all_gpus()  # the machine's devices, looked up once


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
