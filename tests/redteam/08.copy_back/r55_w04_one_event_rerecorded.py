# expect: fail one Event object re-recorded for copy i before the host waits on it for result i - 1: the wait covers compute i
# hint: newest|latest|covers|stall|idle|host wait|next.*compute|compute.*queued
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    landed = torch.cuda.Event()  # one marker behind the copies to the host, made once
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
        buf = buffers[i % 2]  # result i - 1 is in the other buffer
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        landed.record(back_stream)
        if previous is not None:
            landed.synchronize()
            consume(*previous)
        previous = (i, buf)
    landed.synchronize()
    consume(*previous)
