# expect: fail back_stream.wait_stream(compute_stream) is queued before compute i, so the copy back does not wait for its compute
# hint: wait|before (its|the) compute|compute.*(finish|done|end)|early
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
        back_stream.wait_stream(compute_stream)  # the copy back will wait for the compute stream
        x.record_stream(compute_stream)
        y = compute(x)  # compute i is queued: now the host may wait for result i - 1
        if pending is not None:
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # its previous result, i - 2, was consumed above or earlier
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)


answer = pipelined_to_host
