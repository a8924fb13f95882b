# expect: fail keeps state between calls: the last result's consume is left for the START of the next call (to avoid a wait at the end), so this call returns before consuming its last batch
# hint: last|every batch|each batch|all batches|once per batch|between calls|state|missing|return
import torch

_left_over = []  # (consume, i, buffer, event) from the previous call


def pipelined_to_host(batches, compute, device, buffers, consume):
    while _left_over:  # finish the previous call's last result first
        f, j, buf, event = _left_over.pop()
        event.synchronize()
        f(j, buf)
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
        y = compute(x)
        back_stream.wait_stream(compute_stream)
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
    _left_over.append((consume, *pending))  # no wait at the end: the GPU keeps the copy going


answer = pipelined_to_host
