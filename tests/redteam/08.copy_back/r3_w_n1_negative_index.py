# expect: fail two-behind rotation, but the drain loop `range(n - 2, n)` has no max(0, ...): with one batch it calls consume(-1, ...) before consume(0, ...).
# hint: consume\ was\ called\ with\ the\ indices\ \[\-1,\ 0\]\ for\ 1\ batches
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    h2d, d2h = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)
    landed = [None] * n

    def to_device(k):
        with torch.cuda.stream(h2d):
            x = batches[k].to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(h2d)
        return x, ev

    nxt = to_device(0)
    for i in range(n):
        x, ev = nxt
        if i + 1 < n:
            nxt = to_device(i + 1)
        ev.wait(compute_stream)
        x.record_stream(compute_stream)
        y = compute(x)
        done = torch.cuda.Event()
        done.record(compute_stream)
        if i >= 2:  # buffers[i % 2] still holds result i - 2: consume it first
            landed[i - 2].synchronize()
            consume(i - 2, buffers[i % 2])
        d2h.wait_event(done)
        with torch.cuda.stream(d2h):
            buffers[i % 2].copy_(y, non_blocking=True)
            y.record_stream(d2h)
            landed[i] = torch.cuda.Event()
            landed[i].record(d2h)
    for j in range(n - 2, n):  # the last two (for n == 1 this is -1, 0)
        landed[j].synchronize()
        consume(j, buffers[j % 2])
