# expect: fail waits and consumes two batches late: the copy into buffer i % 2 is queued before consume(i - 2) of that same buffer has returned
# hint: buffer|reuse|overwrit|consumed|before.*consum|free
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
    pending = []  # two in flight: keep the GPU even busier
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
        pending.append((i, buffer, landed))
        if len(pending) > 2:
            j, buf, event = pending.pop(0)
            event.synchronize()
            consume(j, buf)
    for j, buf, event in pending:
        event.synchronize()
        consume(j, buf)


answer = pipelined_to_host
