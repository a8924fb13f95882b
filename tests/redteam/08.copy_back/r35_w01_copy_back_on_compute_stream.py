# expect: fail The copies to the host are queued on the compute stream itself, so each copy back holds up the next compute and the three stages no longer overlap.
# hint: stream of its own|compute stream|side stream|third stream|back stream
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

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
        buffer = buffers[i % 2]
        # already ordered after the compute: same stream, no wait needed
        buffer.copy_(y, non_blocking=True)
        landed = compute_stream.record_event()
        if pending is not None:
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
