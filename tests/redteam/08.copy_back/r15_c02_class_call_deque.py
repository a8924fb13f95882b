# expect: pass callable class, wait_stream, deque of pending copies back
# hint: 
from collections import deque

import torch


class PipelinedToHost:
    """Three stages: copies in (side stream), computes (current stream), copies back (third stream)."""

    def __call__(self, batches, compute, device, buffers, consume):
        main = torch.cuda.current_stream(device)
        h2d = torch.cuda.Stream(device)
        d2h = torch.cuda.Stream(device)
        inflight = deque()  # (i, buffer, event) whose copy back is queued, not yet consumed

        def upload(b):
            with torch.cuda.stream(h2d):
                return b.to(device, non_blocking=True)

        nxt = upload(batches[0])
        for i in range(len(batches)):
            x = nxt
            main.wait_stream(h2d)  # everything copied so far, batch i included
            if i + 1 < len(batches):
                nxt = upload(batches[i + 1])
            x.record_stream(main)
            y = compute(x)
            d2h.wait_stream(main)
            buf = buffers[i % len(buffers)]
            with torch.cuda.stream(d2h):
                buf.copy_(y, non_blocking=True)
                y.record_stream(d2h)
                ev = torch.cuda.Event()
                ev.record(d2h)
            inflight.append((i, buf, ev))
            if len(inflight) > 1:
                j, b, e = inflight.popleft()
                e.synchronize()
                consume(j, b)
        while inflight:
            j, b, e = inflight.popleft()
            e.synchronize()
            consume(j, b)
        return None


answer = PipelinedToHost()
