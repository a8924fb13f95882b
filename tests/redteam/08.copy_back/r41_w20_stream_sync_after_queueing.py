# expect: fail queues copy-back i and only then calls back_stream.synchronize() to consume result i - 1: the wait covers compute i, the newest one
# hint: (newest|covers|next (batch's )?compute|queued|stream\.synchronize|event|host wait)
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
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            back_stream.synchronize()  # copy i - 1 has landed then
            consume(pending[0], pending[1])
        pending = (i, buf, landed)
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
