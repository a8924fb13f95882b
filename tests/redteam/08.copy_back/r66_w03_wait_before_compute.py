# expect: fail the copy-back stream's wait_stream is queued before compute(x), so it does not cover the compute
# hint: before (the )?compute|wait.{0,40}(compute|result)|copy back.{0,40}(wait|before)|not (wait|cover)
# Wrong: "on a stream of its own, which waits for the compute on the GPU": wait_stream only
# covers work queued so far, and here compute i is queued after it, so the copy may read y early.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        back_stream.wait_stream(compute_stream)  # set up all the ordering first...
        x.record_stream(compute_stream)
        y = compute(x)  # ...but the compute is queued after the wait was taken
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)
