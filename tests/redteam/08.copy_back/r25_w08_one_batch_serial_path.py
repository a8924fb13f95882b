# expect: fail special-cases a single batch ("nothing to overlap with") with a blocking copy in and a blocking copy back on the compute stream, instead of the non-blocking copy back on a stream of its own
# hint: one batch|single batch|blocking|non_blocking|compute stream|stream of its own|special.?case
import torch


def answer(batches, compute, device, buffers, consume):
    if len(batches) == 1:  # nothing to overlap with: do it simply
        y = compute(batches[0].to(device))
        buffers[0].copy_(y)
        consume(0, buffers[0])
        return
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
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
