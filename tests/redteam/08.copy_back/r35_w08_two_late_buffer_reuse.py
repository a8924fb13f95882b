# expect: fail Reads results two batches late with only two buffers, so the copy of result i goes into the buffer that still holds result i - 2 before consume(i - 2) has read it.
# hint: buffer|consum|free|overwr|reuse
# name: pipelined_to_host
from collections import deque

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    pending = deque()
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_event(compute_stream.record_event())
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        pending.append((i, buffer, landed))
        if len(pending) > 2:  # two copies back in flight keep the d2h engine busier
            j, buf, ev = pending.popleft()
            ev.synchronize()
            consume(j, buf)
    while pending:
        j, buf, ev = pending.popleft()
        ev.synchronize()
        consume(j, buf)


answer = pipelined_to_host
