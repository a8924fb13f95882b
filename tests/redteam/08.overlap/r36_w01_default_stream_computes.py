# expect: fail computes forced onto torch.cuda.default_stream(device) instead of the current stream: wrong only when called inside "with torch.cuda.stream(s)"
# hint: current stream|current_stream|default stream|default_stream|caller.s stream
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)  # where kernels go
    copy_stream = torch.cuda.Stream(device)
    results, ahead = [], None
    with torch.cuda.stream(copy_stream):
        if batches:
            ahead = (batches[0].to(device, non_blocking=True), copy_stream.record_event())
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                ahead = (batches[i + 1].to(device, non_blocking=True), copy_stream.record_event())
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        with torch.cuda.stream(compute_stream):
            results.append(compute(x))
    return results


answer = pipelined
