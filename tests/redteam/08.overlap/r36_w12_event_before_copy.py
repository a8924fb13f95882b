# expect: fail records the copy's event before queueing the copy, so the compute's wait_event covers nothing and computes may read batches that have not landed
# hint: event|after the copy|before the copy|record|wait|landed|race
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            ready = copy_stream.record_event()  # the marker for this batch
            x = b.to(device, non_blocking=True)
        return x, ready

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, ready = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ready)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
