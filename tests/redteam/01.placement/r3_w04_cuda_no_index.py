# expect: fail 'cuda' without an index for every GPU worker
# hint: without an index
import torch
def answer(n_workers):
    n = torch.cuda.device_count()
    return [torch.device("cuda") if n else torch.device("cpu") for _ in range(n_workers)]
