# expect: fail returns one device too few (range(n_workers - 1))
# hint: (length|len|n_workers|number|count|one (device )?per worker|how many|too few)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers - 1)]
