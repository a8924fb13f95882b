# expect: fail place_workers(0) returns one device instead of an empty list (clamps n_workers to at least 1)
# hint: n_workers|empty|zero|\b0\b|no workers|length|len\b|how many|number of
import d2lgpu


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); a job always has at least one worker."""
    n_workers = max(1, int(n_workers))
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
