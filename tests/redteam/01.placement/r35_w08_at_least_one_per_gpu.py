# expect: fail Returns at least one device per GPU "to keep every GPU busy", so with fewer workers than GPUs the list is longer than n_workers.
# hint: one device per worker|returned \d+ devices|length|n_workers
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    total = max(n_workers, len(devices))  # every GPU gets a worker
    return [devices[i % len(devices)] for i in range(total)]


answer = place_workers
