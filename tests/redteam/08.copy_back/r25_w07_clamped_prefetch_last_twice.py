# expect: fail prefetches batches[min(i + 1, n - 1)] on every step, so the last batch is copied to the device a second time (a copy and device memory for nothing, and an event never waited for)
# hint: twice|second time|again|extra copy|min\(|clamp|last batch|copies? .*more
import torch


def answer(batches, compute, device, buffers, consume):
    n = len(batches)
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(n):
        x, landed = ahead
        ahead = send(batches[min(i + 1, n - 1)])  # no special case for the last step
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            pending = (i, buffer, back_stream.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
