# expect: fail the default stream is made to wait, but the computes go on the current stream: under a caller's torch.cuda.stream(s) they do not wait for their copies
# hint: current stream|default stream|caller.{0,30}stream|torch\.cuda\.stream|wrong stream|wait.{0,40}(compute|current)|before.{0,40}(copy|cop(y|ies)).{0,30}(land|finish|end|done)|stale|race
# Wrong: fine when the current stream is the default one; the prompt says the computes go on
# the current stream, which under a caller's `with torch.cuda.stream(s)` is s, not the default.
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)  # "computes run on the default stream"
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


answer = pipelined
