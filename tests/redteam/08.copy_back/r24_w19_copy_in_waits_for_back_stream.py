# expect: fail the copy-in stream waits for the back stream before each copy in ("so a copy in never overwrites a result still going back"): each copy in then waits for the previous copy back, so when copies back are slow the copies in and the computes fall behind them
# hint: copy.in (stream )?waits?|wait_stream\(back|waits? for the (back|copy.back|d2h)|copies back|extra wait|unneeded wait|back stream
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        copy_stream.wait_stream(back_stream)
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    landed = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed[i] = back_stream.record_event()
        if i:
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
