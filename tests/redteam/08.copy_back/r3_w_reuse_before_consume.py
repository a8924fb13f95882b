# expect: fail consumes two behind but queues the copy of result i into buffers[i % 2] before consuming result i - 2 from that same buffer.
# hint: the\ copy\ of\ result\ 2\ into\ buffers\[0\]\ was\ queued\ before\ result\ 0,\ which\ that\ buffer\ held,\ was\ handed\ to\ consume
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = []
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        pending.append((i, buf, landed))
        if len(pending) > 2:
            j, pbuf, pev = pending.pop(0)
            pev.synchronize()
            consume(j, pbuf)
    for j, pbuf, pev in pending:
        pev.synchronize()
        consume(j, pbuf)
