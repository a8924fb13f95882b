# expect: pass The straightforward round-robin: try_all_gpus() asked inside the call, worker i gets devices[i % len(devices)].
# hint:
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()  # [cpu] without a GPU: never empty
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
