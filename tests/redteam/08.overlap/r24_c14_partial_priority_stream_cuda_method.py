# expect: pass functools.partial of a general pipeline (lookahead fixed at 1); a high-priority copy stream made with keywords; .cuda(device, non_blocking=True); stream.record_event(torch.cuda.Event()) and wait_event; record_stream
# hint: 
import functools

import torch


def _pipeline(batches, compute, device, *, lookahead):
    compute_stream = torch.cuda.current_stream(device=device)
    copy_stream = torch.cuda.Stream(device=device, priority=-1)
    n = len(batches)
    staged = {}

    def stage(j):
        if j < n:
            with torch.cuda.stream(copy_stream):
                x = batches[j].cuda(device, non_blocking=True)
            staged[j] = (x, copy_stream.record_event(torch.cuda.Event()))

    for j in range(min(lookahead, n)):
        stage(j)
    out = []
    for i in range(n):
        stage(i + lookahead)
        x, ev = staged.pop(i)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        out.append(compute(x))
    return out


answer = functools.partial(_pipeline, lookahead=1)
