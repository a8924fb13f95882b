# expect: fail returns one CPU device for zero workers (max(1, n_workers)) instead of an empty list
# hint: (zero|0 workers|empty|n_workers|length|len)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(max(1, n_workers))]  # at least one worker
