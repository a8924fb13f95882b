# expect: pass functools.partial of a general prefetcher with depth 2, deque, .cuda(non_blocking=True), Event().record(stream)
# hint: 
import functools
from collections import deque

import torch


def prefetching(batches, compute, device, *, depth):
    """Keep up to `depth` copies queued ahead of the compute, on a side stream."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    queued = deque()
    upcoming = iter(batches)

    def enqueue():
        batch = next(upcoming, None)
        if batch is None:
            return
        with torch.cuda.stream(copy_stream):
            x = batch.cuda(device, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(copy_stream)
        queued.append((x, landed))

    for _ in range(depth):
        enqueue()
    results = []
    while queued:
        x, landed = queued.popleft()
        enqueue()  # the next copy, queued before this compute
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
        del x
    return results


answer = functools.partial(prefetching, depth=2)
