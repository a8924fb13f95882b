# expect: pass probes d2lgpu.try_gpu(i) until it falls back to the CPU, then maps workers with divmod
# hint:
import d2lgpu
import torch


def _gpus_now():
    gpus = []
    while True:
        d = d2lgpu.try_gpu(len(gpus))
        if d.type != "cuda":
            return gpus
        gpus.append(d)


def place_workers(n_workers):
    pool = _gpus_now() or [d2lgpu.cpu()]
    return [pool[divmod(w, len(pool))[1]] for w in range(n_workers)]


answer = place_workers
