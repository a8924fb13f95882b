# expect: fail Stream.synchronize() of the copy-back stream after queuing copy i: the host waits for compute i too
# hint: newest|latest|covers|stall|idle|host wait|next.*compute|compute.*queued
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    previous = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        # queue result i's copy back at once, into the buffer result i - 1 does not use
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        if previous is not None:
            back_stream.synchronize()  # the copy of result i - 1 has landed
            consume(*previous)
        previous = (i, buf)
    back_stream.synchronize()
    consume(*previous)
