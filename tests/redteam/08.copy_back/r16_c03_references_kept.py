# expect: pass device tensors kept referenced until their copy back is synced (no record_stream)
# hint: 
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)
    prefetched = deque()  # (x, event after its copy in)
    unread = deque()  # (i, buffer, event after its copy back, x and y kept alive)

    def prefetch(i):
        with torch.cuda.stream(copy_stream):
            prefetched.append((batches[i].to(device, non_blocking=True), copy_stream.record_event()))

    def read_oldest():
        i, buffer, landed, _kept = unread.popleft()
        landed.synchronize()  # after it, compute i and its copy back are done: x, y may go
        consume(i, buffer)

    prefetch(0)
    for i in range(n):
        if i + 1 < n:
            prefetch(i + 1)
        x, copied = prefetched.popleft()
        compute_stream.wait_event(copied)
        y = compute(x)
        if unread:
            read_oldest()
        buffer = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            buffer.copy_(y, non_blocking=True)
            unread.append((i, buffer, back_stream.record_event(), (x, y)))
        del x, y
    while unread:
        read_oldest()
