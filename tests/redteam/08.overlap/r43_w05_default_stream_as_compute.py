# expect: fail Makes torch.cuda.default_stream(device) wait for the copies, but compute() runs on the current stream; when the caller is inside `with torch.cuda.stream(s)` they differ, so the computes wait for nothing and read batches before they land.
# hint: current|default_stream|current_stream|stream\(s\)|caller|wait
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)  # not the current stream
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
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
