# expect: fail The copy into the pinned buffer is made without non_blocking=True, so the host blocks in every copy back until the compute before it is done, a sync point in the loop.
# hint: non_blocking|blocking copy|host wait
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

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
        back_stream.wait_event(compute_stream.record_event())
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y)
            landed = back_stream.record_event()
        if pending is not None:
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
