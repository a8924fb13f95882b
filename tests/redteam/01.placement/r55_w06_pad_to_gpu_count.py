# expect: fail with fewer workers than GPUs it returns one device per GPU (more than n_workers) to "keep every GPU busy"
# hint: n_workers|length|len\b|how many|number of|too many|\d+ devices?|entries|elements
import d2lgpu


def place_workers(n_workers):
    """Round-robin; never fewer entries than GPUs, so that every GPU gets a worker."""
    devices = d2lgpu.try_all_gpus()
    total = max(n_workers, len(devices)) if n_workers else 0
    return [devices[i % len(devices)] for i in range(total)]


answer = place_workers
