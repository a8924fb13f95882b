# expect: fail Leaves out record_stream (and keeps no references): each device batch, made on the copy stream, is freed when `x` is rebound while its compute may still read it, so the allocator can hand its memory to the next copy; the values usually come out right anyway.
# hint: record_stream|reuse|memory|freed|allocator|reference
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results
