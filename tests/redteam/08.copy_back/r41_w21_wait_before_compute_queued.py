# expect: fail calls back_stream.wait_stream(compute_stream) before compute i is queued, so the copy back of result i waits only for compute i - 1
# hint: (wait_stream|wait_event|wait for (the|its) compute|waits? on the GPU|race|stale|before .*comput|early|too soon)
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
        back_stream.wait_stream(compute_stream)  # set up the wait early
        y = compute(x)
        if pending is not None:
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        pending = (i, buf, landed)
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
