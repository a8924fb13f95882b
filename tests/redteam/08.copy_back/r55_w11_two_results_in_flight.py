# expect: fail keeps two copies back in flight: copies result i into the buffer of result i - 2 before consume has returned for it
# hint: buffer|overwr|reus|consum|before.*(read|consum)
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)
    in_flight = deque()  # (i, buffer, event): two buffers, two results in flight

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
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
            in_flight.append((i, buf, back_stream.record_event()))
        if len(in_flight) > 2:  # the oldest result, two batches late
            j, old, done = in_flight.popleft()
            done.synchronize()
            consume(j, old)
    while in_flight:
        j, old, done = in_flight.popleft()
        done.synchronize()
        consume(j, old)
