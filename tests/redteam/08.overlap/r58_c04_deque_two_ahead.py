# expect: pass a generator of copies feeding a deque that runs two batches ahead (allowed), with events made explicitly and recorded by copy_stream.record_event(ev), record_stream
# hint:
from collections import deque

import torch


def pipelined(batches, compute, device, depth=2):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def copies():
        for b in batches:
            with torch.cuda.stream(copy_stream):
                x = b.to(device, non_blocking=True)
            ev = torch.cuda.Event()
            copy_stream.record_event(ev)
            yield x, ev

    source = copies()
    window = deque()
    for _ in range(depth):
        nxt = next(source, None)
        if nxt is not None:
            window.append(nxt)
    results = []
    while window:
        x, ev = window.popleft()
        nxt = next(source, None)  # keep `depth` copies queued ahead of this compute
        if nxt is not None:
            window.append(nxt)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
