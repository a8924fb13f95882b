# expect: fail returns one device even for n_workers=0 (max(1, n_workers)) instead of an empty list
# hint: 0|zero|empty|n_workers|length|len
import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    return [devs[i % len(devs)] for i in range(max(1, n_workers))]


answer = place_workers
