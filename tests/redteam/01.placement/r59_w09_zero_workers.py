# expect: fail returns one device for zero workers instead of an empty list
# hint: zero|0 workers|no workers|empty|n_workers=0|length|len|one per worker
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    n = max(1, n_workers)  # there is always at least one worker
    return [devices[i % len(devices)] for i in range(n)]


answer = place_workers
