# expect: fail the compute stream taken as torch.cuda.default_stream(device), not the current stream
# hint: current stream|current_stream|default.?stream|caller'?s stream|torch\.cuda\.stream\(s\)
# Wrong: the computes go on the current stream; inside a caller's `with torch.cuda.stream(s)`
# compute() queues on s, which never waits for the copies (the waits go to the default stream).
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.default_stream(device)  # "the compute stream is the default one"
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)
