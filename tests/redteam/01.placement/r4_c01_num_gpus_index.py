# expect: pass
# hint: 
import itertools
import torch
import d2lgpu
def answer(n_workers):
    k = d2lgpu.num_gpus()
    pool = [torch.device("cuda", i) for i in range(k)] or [torch.device("cpu")]
    return [d for d, _ in zip(itertools.cycle(pool), range(n_workers))]
