# expect: pass Queues every batch's copy on the side stream up front (allowed: copies further ahead overlap too), each followed by an event from record_event(); then each compute waits for its own event on the GPU, with record_stream.
# hint: 
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    staged = []
    with torch.cuda.stream(copy_stream):
        for batch in batches:
            x = batch.to(device, non_blocking=True)
            staged.append((x, copy_stream.record_event()))
    results = []
    for x, ready in staged:
        compute_stream.wait_event(ready)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
