# expect: fail the side stream is made once, on the first call, and kept in a module-level global: later calls (another device such as cuda:1, another run) reuse a stale stream
# hint: stream.*(once|global|cache|earlier|previous|stale)|state|between calls|device|second call
import torch

_copy_stream = None


def pipelined(batches, compute, device):
    global _copy_stream
    if _copy_stream is None:
        _copy_stream = torch.cuda.Stream(device)  # streams are a pooled resource: make it once
    copy_stream = _copy_stream
    compute_stream = torch.cuda.current_stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
