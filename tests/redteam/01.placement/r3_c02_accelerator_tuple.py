# expect: pass torch.accelerator's count, a tuple back
# hint: 
import torch
def answer(n_workers):
    k = torch.accelerator.device_count() if torch.accelerator.is_available() else 0
    out = []
    for w in range(n_workers):
        out.append(torch.device("cuda", w % k) if k else torch.device("cpu"))
    return tuple(out)
