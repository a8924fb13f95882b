# expect: fail the copy back to the host is queued on the compute stream (current stream) instead of a stream of its own, so it holds up the next compute
# hint: compute stream|own stream|side stream|stream of its own|same stream|holds up|back stream
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def send_back(i, y):
        # y was made on the compute stream: copying it there needs no wait at all
        buffer = buffers[i % 2]
        buffer.copy_(y, non_blocking=True)
        landed = compute_stream.record_event()
        return i, buffer, landed

    pending = None
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
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
