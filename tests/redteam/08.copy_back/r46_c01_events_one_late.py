# expect: pass the summary's recipe: side stream in, third stream back, an event per copy back, the host waits one batch late
# hint:
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
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
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)  # the GPU waits for compute i
        buffer = buffers[i % 2]  # its previous result (i - 2) was consumed last iteration
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:  # one batch late: compute i is queued while the host waits
            j, buf, event = pending
            event.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, event = pending
    event.synchronize()
    consume(j, buf)


answer = pipelined_to_host
