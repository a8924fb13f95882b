# expect: fail event for "compute done" recorded before compute(x) is queued, so the copy back does not wait for it
# hint: (copy|copies) (back|to the host).{0,80}(wait|before|after).{0,40}comput|read.{0,60}before comput|before comput.{0,60}(finish|end|done)|comput.{0,40}not (yet )?(finish|done|ended)|stale|record.{0,40}(before|after) (the )?comput
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
    pending = None  # (index, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        computed = compute_stream.record_event()  # marker for compute i
        y = compute(x)
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buffer, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)


answer = pipelined_to_host
