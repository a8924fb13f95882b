# expect: fail with fewer workers than GPUs it uses the LAST GPUs (sparing GPU 0) instead of starting at cuda:0
# hint: cuda:0|order|round.?robin|first|start|fewer workers|less than
import d2lgpu


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); with spare GPUs, leave GPU 0 (the busy main one) alone."""
    devices = d2lgpu.try_all_gpus()
    if 0 < n_workers < len(devices):
        return devices[len(devices) - n_workers:]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
