# expect: pass batch 0 copied on the current stream, later ones with .cuda(device, non_blocking=True) on a side stream, a deque of pending copies back, e.wait(stream) form
# hint: 
from collections import deque

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    cur = torch.cuda.current_stream(device)
    side_in = torch.cuda.Stream(device)
    side_out = torch.cuda.Stream(device)
    pending = deque()

    first = batches[0].cuda(device, non_blocking=True)  # on the current stream: nothing to overlap yet
    staged = (first, None)

    for i in range(len(batches)):
        x, ready = staged
        if i + 1 < len(batches):
            with torch.cuda.stream(side_in):
                nx = batches[i + 1].cuda(device, non_blocking=True)
                ev = torch.cuda.Event()
                ev.record()
            staged = (nx, ev)
        if ready is not None:
            ready.wait(cur)
            x.record_stream(cur)
        out = compute(x)
        computed = torch.cuda.Event()
        computed.record(cur)
        computed.wait(side_out)
        slot = buffers[i % 2]
        with torch.cuda.stream(side_out):
            out.record_stream(side_out)
            slot.copy_(out, non_blocking=True)
            fin = torch.cuda.Event()
            fin.record()
        pending.append((i, slot, fin))
        while len(pending) > 1:
            j, b, e = pending.popleft()
            e.synchronize()
            consume(j, b)
    while pending:
        j, b, e = pending.popleft()
        e.synchronize()
        consume(j, b)


answer = pipelined_to_host
