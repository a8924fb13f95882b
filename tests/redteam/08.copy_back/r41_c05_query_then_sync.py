# expect: pass polls event.query() first and only synchronizes if not landed; uses .cuda(device, non_blocking=True) and explicit Event objects
# hint: 
# name: pipelined_to_host
import torch


def _wait_landed(event):
    if not event.query():
        event.synchronize()


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(k):
        with torch.cuda.stream(copy_stream):
            x = batches[k].cuda(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(copy_stream)
        return x, ev

    ahead = send(0)
    pending = []
    for i in range(n):
        x, ev = ahead
        if i + 1 < n:
            ahead = send(i + 1)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = torch.cuda.Event()
        computed.record(compute_stream)
        if pending:
            j, buf, landed = pending.pop()
            _wait_landed(landed)
            consume(j, buf)
        computed.wait(back_stream)
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record(back_stream)
        pending.append((i, buf, landed))
    j, buf, landed = pending.pop()
    _wait_landed(landed)
    consume(j, buf)
