# expect: fail no record_stream: keeps references to the device batches, but never makes the copy stream wait for the compute stream before returning, so their memory may be reused while computes still read it
# hint: record_stream|wait_stream|reference|memory|allocator|reuse|before returning|copy stream
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    keep = []  # keeps every device batch alive, so no record_stream is needed
    results = []
    for i in range(len(batches) + 1):
        if i < len(batches):
            with torch.cuda.stream(copy_stream):
                keep.append((batches[i].to(device, non_blocking=True), copy_stream.record_event()))
        if i >= 1:
            x, copied = keep[i - 1]
            compute_stream.wait_event(copied)
            results.append(compute(x))
    return results


answer = pipelined
