# expect: pass
# hint:
# RIGHT: functools.partial of a general prefetcher with a look-ahead of 2 batches (a deque of
# copies in flight), event per copy, wait_event on the GPU, record_stream on the compute stream.
import functools
from collections import deque

import torch


def _prefetching(batches, compute, device, ahead=1):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    queued = deque()
    it = iter(batches)

    def queue_next():
        b = next(it, None)
        if b is None:
            return
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            queued.append((x, copy_stream.record_event()))

    for _ in range(ahead):
        queue_next()
    results = []
    while queued:
        queue_next()  # keeps `ahead` copies queued beyond the one about to be computed
        x, copied = queued.popleft()
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = functools.partial(_prefetching, ahead=2)
