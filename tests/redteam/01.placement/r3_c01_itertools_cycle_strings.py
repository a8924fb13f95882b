# expect: pass itertools.cycle over device strings from torch.cuda directly
# hint: 
import itertools
import torch
def answer(n_workers):
    names = [f"cuda:{i}" for i in range(torch.cuda.device_count())] if torch.cuda.is_available() else ["cpu"]
    return [torch.device(d) for d in itertools.islice(itertools.cycle(names), n_workers)]
