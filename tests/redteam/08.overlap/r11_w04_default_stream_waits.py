# expect: fail takes the default stream for the compute stream: the waits (and record_stream) go to torch.cuda.default_stream() while the computes run on the current stream, so inside `with torch.cuda.stream(s)` no compute waits for its copy
# hint: default.stream|current.stream|caller|not the default
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)  # where the computes run (not when called on a stream)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
