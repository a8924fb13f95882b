# expect: fail the back stream's wait for the compute stream is queued before compute(x) is called, so the copy back does not wait for the compute that makes its result
# hint: wait|race|before.*comput|event|order|stale|finished
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def send_back(i, y):
        y.record_stream(back_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        return i, buffer, landed

    pending = None
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        back_stream.wait_stream(compute_stream)  # the copy back waits for the compute stream
        y = compute(x)
        if pending is not None:  # compute i is queued: now the host may wait for result i - 1
            j, buffer, landed = pending
            landed.synchronize()
            consume(j, buffer)
        pending = send_back(i, y)
    j, buffer, landed = pending
    landed.synchronize()
    consume(j, buffer)


answer = pipelined_to_host
