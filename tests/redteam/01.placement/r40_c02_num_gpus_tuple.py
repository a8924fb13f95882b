# expect: pass d2lgpu.num_gpus() with gpu(i) and cpu(), returns a tuple
# hint: 
# name: place_workers
from d2lgpu import cpu, gpu, num_gpus


def place_workers(n_workers):
    n = num_gpus()
    if n == 0:
        return tuple(cpu() for _ in range(n_workers))
    return tuple(gpu(w % n) for w in range(n_workers))
