# expect: fail queues every compute first and only then copies the results back, each copy-back waiting for the whole compute stream: no copy back overlaps a compute
# hint: (overlap|timeline|quarter|beside|side by side|slower|too long|took|serial|one after another)
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    results = []
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    # second phase: bring them home
    back_stream.wait_stream(compute_stream)
    pending = None
    for i, y in enumerate(results):
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, ev = pending
            ev.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, ev = pending
    ev.synchronize()
    consume(j, b)
