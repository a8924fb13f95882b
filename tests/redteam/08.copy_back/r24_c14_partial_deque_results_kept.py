# expect: pass functools.partial of a pipeline with a lag parameter (1), a deque of (index, buffer, result, event); results kept referenced until their event is synchronized, record_stream for the device batches; streams made with device= keyword and .to(device=..., non_blocking=True)
# hint: 
import collections
import functools

import torch


def _run(batches, compute, device, buffers, consume, *, lag):
    assert lag < len(buffers)
    compute_stream = torch.cuda.current_stream(device=device)
    h2d = torch.cuda.Stream(device=device)
    d2h = torch.cuda.Stream(device=device)
    pending = collections.deque()

    def drain_one():
        i, buf, _keep_alive, landed = pending.popleft()
        landed.synchronize()
        consume(i, buf)

    def load(b):
        with torch.cuda.stream(h2d):
            return b.to(device=device, non_blocking=True), h2d.record_event()

    nxt = load(batches[0]) if len(batches) else None
    for i in range(len(batches)):
        x, loaded = nxt
        if i + 1 < len(batches):
            nxt = load(batches[i + 1])
        compute_stream.wait_event(loaded)
        x.record_stream(compute_stream)
        y = compute(x)
        d2h.wait_stream(compute_stream)
        buf = buffers[i % len(buffers)]
        with torch.cuda.stream(d2h):
            buf.copy_(y, non_blocking=True)
            pending.append((i, buf, y, d2h.record_event()))
        while len(pending) > lag:
            drain_one()
    while pending:
        drain_one()


answer = functools.partial(_run, lag=1)
