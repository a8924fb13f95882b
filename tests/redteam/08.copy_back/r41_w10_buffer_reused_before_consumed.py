# expect: fail lags two batches behind with only two buffers, so the copy of result i goes into the buffer still holding unconsumed result i - 2
# hint: (consumed|buffer|free|reuse|overwr|two)
# name: pipelined_to_host
from collections import deque

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = deque()
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
            buf.copy_(y, non_blocking=True)  # into the buffer of result i - 2, not consumed yet
            landed = back_stream.record_event()
        pending.append((i, buf, landed))
        if len(pending) > 2:  # keep two copies in flight, to keep the host further behind
            j, b, ev = pending.popleft()
            ev.synchronize()
            consume(j, b)
    while pending:
        j, b, ev = pending.popleft()
        ev.synchronize()
        consume(j, b)
