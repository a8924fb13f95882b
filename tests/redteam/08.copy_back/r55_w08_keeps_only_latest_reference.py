# expect: fail no record_stream; keeps a reference only to the newest batch and result, so the previous ones are freed while their streams may still use them
# hint: record_stream|reference|freed|free|memory|reus
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)
    keep = None  # a reference kept instead of record_stream

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        y = compute(x)
        keep = (x, y)  # alive until the next batch's compute is queued
        if pending is not None:
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        pending = (i, buf, done)
        del x, y
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
    del keep
