# expect: pass fills a preallocated list with extended-slice assignment, one stride per device
# hint: 
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    stride = len(devices)
    placed = [None] * n_workers
    for k, device in enumerate(devices):
        slots = range(k, n_workers, stride)  # workers k, k + stride, k + 2 stride, ...
        placed[k::stride] = [device] * len(slots)
    return placed


answer = place_workers
