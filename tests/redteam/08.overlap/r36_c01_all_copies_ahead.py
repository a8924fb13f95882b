# expect: pass queues every batch's copy on the side stream first (one event each), then each compute waits on the GPU for its own event; record_stream for the compute stream
# hint:
import torch


def pipelined(batches, compute, device):
    device = torch.device(device)
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    copy_stream.wait_stream(compute_stream)  # whatever the caller queued before us comes first
    staged = []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            x = b.to(device, non_blocking=True)
            staged.append((x, copy_stream.record_event()))
    results = []
    for x, landed in staged:
        compute_stream.wait_event(landed)  # the GPU waits for this batch's copy only
        x.record_stream(compute_stream)  # x came from the copy stream's pool
        results.append(compute(x))
    return results


answer = pipelined
