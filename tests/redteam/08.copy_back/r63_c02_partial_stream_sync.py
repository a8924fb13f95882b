# expect: pass
# hint:
# Right: a general function bound with functools.partial; GPU waits through wait_event, and the
# host waits with Stream.synchronize() on the copy-back stream, before that stream is told to wait for the newest compute.
import functools

import torch


def _pipeline(batches, compute, device, buffers, consume, *, lag=1):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    copied = []
    for b in batches[:1]:
        with torch.cuda.stream(copy_stream):
            copied.append((b.to(device, non_blocking=True), copy_stream.record_event()))
    waiting = None  # index of the result whose copy back is queued and not yet consumed
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)
                copied.append((x_next, copy_stream.record_event()))
        x, ev = copied.pop(0)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        y = compute(x)
        done = compute_stream.record_event()
        if waiting is not None:
            back_stream.synchronize()  # holds only copy back `waiting`: compute i is queued, not covered
            consume(waiting, buffers[waiting % 2])
        back_stream.wait_event(done)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
        waiting = i
    back_stream.synchronize()
    consume(waiting, buffers[waiting % 2])


answer = functools.partial(_pipeline, lag=1)
