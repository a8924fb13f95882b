# expect: pass torch.cuda.set_stream toggling (caller's stream restored in finally), Event().record(stream) / Event.wait(stream), buffers taken from itertools.cycle, one uniform loop over n + 1 steps that consumes step - 1
# hint:
import itertools

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    caller = torch.cuda.current_stream(device)
    up, down = torch.cuda.Stream(device), torch.cuda.Stream(device)
    ring = itertools.cycle(buffers)

    def on(stream, fn):
        torch.cuda.set_stream(stream)
        try:
            return fn()
        finally:
            torch.cuda.set_stream(caller)

    def upload(b):
        t = on(up, lambda: b.to(device, non_blocking=True))
        ev = torch.cuda.Event()
        ev.record(up)
        return t, ev

    n, nxt, back = len(batches), upload(batches[0]), None
    for step in range(n + 1):
        if step < n:
            t, ready = nxt
            nxt = upload(batches[step + 1]) if step + 1 < n else None
            ready.wait(caller)
            t.record_stream(caller)
            y = compute(t)
            done = torch.cuda.Event()
            done.record(caller)
        if back is not None:  # copy back step - 1: the host waits for it, compute step queued
            k, buf, landed = back
            landed.synchronize()
            consume(k, buf)
            back = None
        if step < n:
            buf = next(ring)
            done.wait(down)
            y.record_stream(down)
            on(down, lambda: buf.copy_(y, non_blocking=True))
            landed = torch.cuda.Event()
            landed.record(down)
            back = (step, buf, landed)
