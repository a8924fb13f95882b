# expect: pass
# hint:
# name: pipelined
import torch


def pipelined(batches, compute, device):
    if len(batches) == 0:
        return []
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    # batch 0 on the current stream: nothing runs before it to overlap with, and compute 0
    # follows it in the same queue (and x is from that stream's own pool)
    x = batches[0].to(device, non_blocking=True)
    ready = None
    results = []
    for nxt in list(batches[1:]) + [None]:
        if nxt is not None:
            with torch.cuda.stream(copy_stream):
                y = nxt.to(device, non_blocking=True)
                y_ready = torch.cuda.Event()
                y_ready.record()  # on copy_stream, current inside the block
        if ready is not None:
            ready.wait()  # the current (compute) stream waits on the GPU
            x.record_stream(compute_stream)
        results.append(compute(x))
        if nxt is not None:
            x, ready = y, y_ready
    return results
