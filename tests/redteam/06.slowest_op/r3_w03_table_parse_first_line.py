# expect: fail parses prof.key_averages().table() sorted by count and takes the first operator
# hint: called most often
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize()
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    table = prof.key_averages().table(sort_by="count", row_limit=5)
    for line in table.splitlines():
        word = line.strip().split(" ")[0]
        if word.startswith("aten::"):
            return word
