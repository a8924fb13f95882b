# expect: fail returns a generator, not a list or a tuple
# hint: (list|tuple|generator|iterator|type)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return (devices[i % len(devices)] for i in range(n_workers))
