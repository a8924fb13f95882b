# expect: fail returns one device per GPU when there are fewer workers than GPUs, so the list is longer than n_workers
# hint: per worker|length|len|n_workers|too many|number of (devices|workers)|one per worker|count|long
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    # keep every GPU busy: at least one entry per device
    return [devices[i % len(devices)] for i in range(max(n_workers, len(devices)))]


answer = place_workers
