# expect: pass
# hint:
# name: pipelined_to_host
import itertools

import torch


def _on_device(batches, device, stream):
    """Yield (device tensor, event after its copy), with the next batch's copy already queued."""

    def put(b):
        with torch.cuda.stream(stream):
            t = b.to(device, non_blocking=True)
            return t, stream.record_event()

    it = iter(batches)
    first = next(it, None)
    if first is None:
        return
    ahead = put(first)
    for b in it:
        now = ahead
        ahead = put(b)  # the copy of the next batch is queued before this one is computed
        yield now
    yield ahead


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    in_stream, out_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    slots = itertools.cycle(buffers[:2])

    def finish(i, buf, ev):
        if not ev.query():  # done already, or wait for that copy (and only it)
            ev.synchronize()
        consume(i, buf)

    waiting = None
    for i, (x, arrived) in enumerate(_on_device(batches, device, in_stream)):
        compute_stream.wait_event(arrived)
        x.record_stream(compute_stream)
        y = compute(x)
        out_stream.wait_stream(compute_stream)
        buf = next(slots)
        with torch.cuda.stream(out_stream):
            y.record_stream(out_stream)
            buf.copy_(y, non_blocking=True)
            ev = out_stream.record_event()
        if waiting is not None:
            finish(*waiting)
        waiting = (i, buf, ev)
    if waiting is not None:
        finish(*waiting)
