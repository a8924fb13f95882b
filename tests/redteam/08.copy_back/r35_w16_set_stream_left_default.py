# expect: fail Switches streams with torch.cuda.set_stream and at the end "restores" torch.cuda.default_stream(device) instead of the caller's stream, so a caller inside with torch.cuda.stream(s) finds its current stream changed after the call.
# hint: set_stream|current stream|restore|caller|put back|left
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        torch.cuda.set_stream(copy_stream)
        x = batch.to(device, non_blocking=True)
        event = copy_stream.record_event()
        torch.cuda.set_stream(compute_stream)
        return x, event

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
        back_stream.wait_event(compute_stream.record_event())
        buffer = buffers[i % 2]
        torch.cuda.set_stream(back_stream)
        y.record_stream(back_stream)
        buffer.copy_(y, non_blocking=True)
        landed = back_stream.record_event()
        torch.cuda.set_stream(compute_stream)
        if pending is not None:
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)
    torch.cuda.set_stream(torch.cuda.default_stream(device))  # back to normal


answer = pipelined_to_host
