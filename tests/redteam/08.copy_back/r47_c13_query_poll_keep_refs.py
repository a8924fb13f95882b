# expect: pass copy_ into device tensors, Event objects recorded explicitly, wait_stream for the copy back, references kept (not record_stream) for the results, host polls query() one batch late
# hint:
import time

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)  # the computes stay on the caller's current stream
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)

    def upload(b):
        with torch.cuda.stream(h2d):
            x = torch.empty(b.shape, dtype=b.dtype, device=device)
            x.copy_(b, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record(h2d)
        return x, ready

    def deliver(entry):
        i, buf, y, landed = entry
        while not landed.query():  # the host learns the copy has landed
            time.sleep(0)
        consume(i, buf)
        # y (made on main, read on d2h) may be freed now: its copy back is done

    in_flight = None  # (index, buffer, result kept alive, event after its copy back)
    nxt = upload(batches[0])
    for i in range(len(batches)):
        x, ready = nxt
        if i + 1 < len(batches):
            nxt = upload(batches[i + 1])
        main.wait_event(ready)
        x.record_stream(main)
        y = compute(x)
        if in_flight is not None:
            deliver(in_flight)  # waits only for result i - 1; compute i is queued
        buf = buffers[i % len(buffers)]
        d2h.wait_stream(main)  # the copy back starts after compute i
        with torch.cuda.stream(d2h):
            buf.copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(d2h)
        in_flight = (i, buf, y, landed)
    deliver(in_flight)


answer = pipelined_to_host
