# expect: pass queues every batch's copy to the device before the first compute (allowed: more device memory), then a deque of pending copies back drained one behind
# hint: 
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    staged = []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            staged.append((b.to(device, non_blocking=True), copy_stream.record_event()))

    pending = deque()  # (index, buffer, event after its copy back)
    for i, (x, copied) in enumerate(staged):
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        staged[i] = None  # drop our reference; record_stream guards the memory
        while pending:
            j, buf, ev = pending.popleft()
            ev.synchronize()
            consume(j, buf)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending.append((i, buffers[i % 2], back_stream.record_event()))
    while pending:
        j, buf, ev = pending.popleft()
        ev.synchronize()
        consume(j, buf)
