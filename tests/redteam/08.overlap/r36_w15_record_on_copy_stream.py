# expect: fail calls record_stream with the copy stream (where x was allocated, a no-op) instead of the compute stream that reads it: the allocator may hand its memory to the next copy while the compute runs
# hint: record_stream|compute stream|allocator|memory|reuse
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results, ahead = [], None

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            x.record_stream(copy_stream)  # tell the allocator which stream uses x
            return x, copy_stream.record_event()

    if batches:
        ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results


answer = pipelined
