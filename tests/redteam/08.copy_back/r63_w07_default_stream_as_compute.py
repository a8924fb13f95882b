# expect: fail takes torch.cuda.default_stream(device) as the compute stream, so under a caller's stream the computes (on the current stream) do not wait for their copies
# hint: current.?stream|default.?stream|caller'?s stream|with torch\.cuda\.stream|not the default|wait_event|(compute|kernel).*(before|without).*(copy|wait)|stale|race
# Wrong: computes go on the current stream; the waits and record_stream name the default stream.
# Right when the caller uses the default stream; inside `with torch.cuda.stream(s)` the computes race their copies.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.default_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending = (i, back_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
