# expect: pass plain torch.cuda.is_available()/device_count() (chapter 1.2's API) instead of the d2lgpu helper, with a while loop
# hint:
import torch


def place_workers(n_workers):
    if torch.cuda.is_available() and torch.cuda.device_count() > 0:
        pool = [torch.device(f"cuda:{i}") for i in range(torch.cuda.device_count())]
    else:
        pool = [torch.device("cpu")]
    out = []
    i = 0
    while len(out) < n_workers:
        out.append(pool[i])
        i = (i + 1) % len(pool)
    return out


answer = place_workers
