# expect: fail keeps two copies back in flight with two buffers: copy i overwrites unconsumed i-2
# hint: buffer|overwrit|before (it was|its result was )?consumed|consume|reuse|in flight|free
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    in_flight = deque()  # (i, buffer, event after its copy back)
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % len(buffers)]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            in_flight.append((i, buf, back_stream.record_event()))
        if len(in_flight) > len(buffers):  # one copy back per buffer may be in flight
            j, b, landed = in_flight.popleft()
            landed.synchronize()
            consume(j, b)
    while in_flight:
        j, b, landed = in_flight.popleft()
        landed.synchronize()
        consume(j, b)
