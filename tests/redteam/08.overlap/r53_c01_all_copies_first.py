# expect: pass every batch's copy queued up front on the side stream, then the computes, each waiting on its own event
# hint:
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    staged = []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            x = b.to(device, non_blocking=True)
            staged.append((x, copy_stream.record_event()))
    results = []
    for x, landed in staged:
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
