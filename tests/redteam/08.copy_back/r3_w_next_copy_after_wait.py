# expect: fail queues the copy in of batch i + 1 only after waiting for and consuming result i - 1 (after compute i), not before compute i.
# hint: before batch \d+ was copied to the device|Queue the next batch's copy in before
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
    pending = None  # (i, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, pbuf, pev = pending
            pev.synchronize()
            consume(j, pbuf)
        pending = (i, buf, landed)
        if i + 1 < n:
            ahead = send(batches[i + 1])
    j, pbuf, pev = pending
    pev.synchronize()
    consume(j, pbuf)
