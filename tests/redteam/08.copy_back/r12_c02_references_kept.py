# expect: pass
# hint:
# name: pipelined_to_host
from collections import deque

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)
    # (index, buffer, event after its copy back, x, y): x and y stay referenced until the
    # host has synchronized with that event, which comes after compute i and copy back i,
    # so the allocator cannot hand their memory to anything else while a stream reads them
    pending = deque()

    def upload(k):
        with torch.cuda.stream(h2d):
            t = batches[k].to(device, non_blocking=True)
            return t, h2d.record_event()

    def drain():
        k, buf, done, _x, _y = pending.popleft()
        done.synchronize()
        consume(k, buf)

    nxt = upload(0) if len(batches) else None
    for i in range(len(batches)):
        x, arrived = nxt
        if i + 1 < len(batches):
            nxt = upload(i + 1)
        main.wait_event(arrived)
        y = compute(x)
        d2h.wait_stream(main)
        buf = buffers[i % len(buffers)]
        with torch.cuda.stream(d2h):
            buf.copy_(y, non_blocking=True)
            done = d2h.record_event()
        pending.append((i, buf, done, x, y))
        del x, y
        if len(pending) > 1:
            drain()
    while pending:
        drain()
