# expect: fail copies every batch to the device on the compute stream (no side stream for the copies in), so copy i + 1 cannot overlap compute i
# hint: side stream|stream|overlap|copy
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)
    ahead = batches[0].to(device, non_blocking=True)
    pending = None
    for i in range(n):
        x = ahead
        if i + 1 < n:
            ahead = batches[i + 1].to(device, non_blocking=True)  # queued before compute i
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
    j, pbuf, pev = pending
    pev.synchronize()
    consume(j, pbuf)


answer = pipelined_to_host
