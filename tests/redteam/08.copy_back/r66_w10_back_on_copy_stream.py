# expect: fail the copies back go on the copy-in side stream instead of a stream of their own, so each next copy in queues behind a compute and a copy back
# hint: stream of its own|own stream|third stream|separate stream|same stream|copy.?in stream|copy_stream|one (side )?stream|of their own
# Wrong: the prompt wants the copy back "on a stream of its own"; on the copy-in stream every
# later copy to the device waits for the compute its copy back waits for, and the pipeline sags.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)  # "not the compute stream": one side stream for all copies
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(side):
            x = batch.to(device, non_blocking=True)
            return x, side.record_event()

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
        side.wait_stream(compute_stream)
        with torch.cuda.stream(side):
            y.record_stream(side)
            buf.copy_(y, non_blocking=True)
            landed = side.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)
