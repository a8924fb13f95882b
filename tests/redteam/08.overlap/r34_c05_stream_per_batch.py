# expect: pass a fresh side stream per batch (wasteful but correct), list comprehension of (tensor, event) queued one ahead via a generator, wait_stream on that batch's own stream
# hint: 
import torch

def pipelined(batches, compute, device):
    here = torch.cuda.current_stream(device)

    def send(b):
        s = torch.cuda.Stream(device)
        with torch.cuda.stream(s):
            t = b.to(device, non_blocking=True)
        return t, s

    out = []
    nxt = send(batches[0]) if batches else None
    for i in range(len(batches)):
        t, s = nxt
        if i + 1 < len(batches):
            nxt = send(batches[i + 1])
        here.wait_stream(s)  # s holds only this batch's copy
        t.record_stream(here)
        out.append(compute(t))
    return out


answer = pipelined
