# expect: pass
# hint:
# Right: every batch's copy to the device is queued before the first compute (exercise 8.1 allows
# copies further ahead, and 8.2's first half is "as in exercise 8.1"), into tensors made with device=.
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    h2d, d2h = torch.cuda.Stream(device), torch.cuda.Stream(device)
    arrived = []
    with torch.cuda.stream(h2d):
        for b in batches:
            x = torch.empty(b.shape, dtype=b.dtype, device=device)
            x.copy_(b, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record()  # current stream here: h2d
            arrived.append((x, ev))
    in_flight = deque()  # (index, buffer, event), at most one entry between iterations
    for i, (x, ev) in enumerate(arrived):
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        y = compute(x)
        arrived[i] = None  # drop our reference; record_stream covers the compute's use
        while in_flight:  # compute i is queued; collect result i - 1
            j, buf, landed = in_flight.popleft()
            landed.synchronize()
            consume(j, buf)
        d2h.wait_stream(compute_stream)
        with torch.cuda.stream(d2h):
            y.record_stream(d2h)
            buf = buffers[i % len(buffers)]
            buf.copy_(y, non_blocking=True)
            in_flight.append((i, buf, d2h.record_event()))
    while in_flight:
        j, buf, landed = in_flight.popleft()
        landed.synchronize()
        consume(j, buf)
