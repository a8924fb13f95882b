# expect: fail keeps two results in flight (one per buffer) and queues the copy of result i into buffers[i % 2] before result i - 2, still in that buffer, has been consumed
# hint: buffer.*(reuse|overwrit|consum|free)|overwrit|before.*consum|reused|still (held|in use)
from collections import deque

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
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        y.record_stream(back_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        return i, buffer, landed

    pending = deque()
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        pending.append(send_back(i, y))  # two buffers: two results may be in flight
        if len(pending) > 2:  # compute i is queued: wait for the oldest result
            j, buffer, landed = pending.popleft()
            landed.synchronize()
            consume(j, buffer)
    while pending:
        j, buffer, landed = pending.popleft()
        landed.synchronize()
        consume(j, buffer)


answer = pipelined_to_host
