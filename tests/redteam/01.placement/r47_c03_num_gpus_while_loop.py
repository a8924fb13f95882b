# expect: pass counts with d2lgpu.num_gpus() and builds torch.device(type, index) in a while loop
# hint:
import d2lgpu
import torch


def place_workers(n_workers):
    n = d2lgpu.num_gpus()
    out = []
    i = 0
    while len(out) < n_workers:
        out.append(torch.device("cuda", i % n) if n else torch.device("cpu"))
        i += 1
    return out


answer = place_workers
