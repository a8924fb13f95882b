# expect: fail Reuses the copy-in side stream for the copies back: the copy of batch i + 2 is queued behind copy back i, which waits for compute i, so copies in wait for computes and the stages stop overlapping as they should.
# hint: stream of its own|own stream|third stream|same stream|side stream|reus
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)  # all copies, both directions, off the compute stream

    def send(batch):
        with torch.cuda.stream(side):
            x = batch.to(device, non_blocking=True)
            return x, side.record_event()

    n = len(batches)
    pending = None
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        side.wait_event(compute_stream.record_event())
        buffer = buffers[i % 2]
        with torch.cuda.stream(side):
            y.record_stream(side)
            buffer.copy_(y, non_blocking=True)
            landed = side.record_event()
        if pending is not None:
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
