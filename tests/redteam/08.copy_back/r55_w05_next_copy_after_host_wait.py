# expect: fail the copy of batch i + 1 is queued only after the host has waited for result i - 1, so it does not run during compute i
# hint: overlap|during|while|ahead|copy.*(next|i ?\+ ?1|later|late)|timeline|slow|quarter
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

    x, copied = send(batches[0])
    pending = None
    for i in range(n):
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)  # queued first: the GPU has compute i while the host waits below
        if pending is not None:
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        pending = (i, buf, done)
        if i + 1 < n:
            x, copied = send(batches[i + 1])  # the next batch's copy, on the side stream
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
