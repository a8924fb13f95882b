# expect: fail queues copy back i, then back_stream.synchronize() to read result i - 1: the wait also covers copy back i and so compute i, the newest
# hint: newest|latest|covers|next (batch'?s? )?compute|compute.*queued|idle|busy|host wait|stall
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
    pending = None  # (i, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)  # compute i is queued: now the host may wait for result i - 1
        buf = buffers[i % 2]  # result i - 2 in it was consumed last iteration
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        if pending is not None:
            j, old = pending
            back_stream.synchronize()  # result i - 1 has landed
            consume(j, old)
        pending = (i, buf)
    j, buf = pending
    back_stream.synchronize()
    consume(j, buf)


answer = pipelined_to_host
