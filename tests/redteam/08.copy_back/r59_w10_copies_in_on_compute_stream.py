# expect: fail copies each batch to the device on the current (compute) stream, inline before its compute, so the copies in no longer overlap the computes; only the copies back run on a side stream
# hint: side stream|copy stream|stream of its own|overlap|serial|copies? (to the device|in)|h2d
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        x = batch.to(device, non_blocking=True)  # pinned: returns at once
        return x, compute_stream.record_event()

    def send_back(i, y):
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
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
