# expect: fail consume lags two batches, so result i is copied into a buffer whose result i - 2 has not been consumed
# hint: buffer.{0,60}(reus|overwrit|before.{0,30}consum|not.{0,20}free)|overwrit|consum.{0,40}before|two buffers
# Wrong: "A buffer is free for another result once consume has returned for it, not before":
# with two buffers, keeping two results in flight writes result i over unconsumed result i - 2.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = []  # "two buffers, so two results in flight: more slack for the host"
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
        pending.append((i, buf, landed))
        if len(pending) > 2:
            j, b, e = pending.pop(0)
            e.synchronize()
            consume(j, b)
    for j, b, e in pending:
        e.synchronize()
        consume(j, b)
