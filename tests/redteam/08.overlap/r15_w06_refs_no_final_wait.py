# expect: fail keeps references instead of record_stream but drops them at return without making the copy stream wait for the compute stream
# hint: record_stream|wait_stream|freed|reference|reuse|allocator|memory.*(still|may)
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    keep = []  # references to every device batch, so their memory is not reused
    events = []

    def send(batch):
        with torch.cuda.stream(copy_stream):
            keep.append(batch.to(device, non_blocking=True))
            events.append(copy_stream.record_event())

    send(batches[0])
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(batches[i + 1])
        compute_stream.wait_event(events[i])
        results.append(compute(keep[i]))
    return results


answer = pipelined
