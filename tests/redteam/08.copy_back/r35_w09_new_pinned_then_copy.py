# expect: fail Ignores the given buffers for the GPU copy: each result goes with .to("cpu", non_blocking=True) into fresh pinned memory and is then copied on the host into a buffer, an extra pinned allocation and host copy per batch (values right, cost wrong).
# hint: buffer|copy_|pinned|\.to\(.cpu|new pinned|into one of
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
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            on_host = y.to("cpu", non_blocking=True)  # section 8.8's way
            landed = back_stream.record_event()
        if pending is not None:
            j, h, ev = pending
            ev.synchronize()
            buf = buffers[j % 2]
            buf.copy_(h)
            consume(j, buf)
        pending = (i, on_host, landed)
    j, h, ev = pending
    ev.synchronize()
    buf = buffers[j % 2]
    buf.copy_(h)
    consume(j, buf)


answer = pipelined_to_host
