# expect: fail back_stream.wait_stream(compute_stream) is called BEFORE compute(x) is queued, so it waits for compute i - 1, not compute i: the copy back races the compute
# hint: wait|before.*compute|race|early|order
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
    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        back_stream.wait_stream(compute_stream)  # order the back stream after the compute stream
        y = compute(x)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, buf, event = pending
            event.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, event = pending
    event.synchronize()
    consume(j, buf)


answer = pipelined_to_host
