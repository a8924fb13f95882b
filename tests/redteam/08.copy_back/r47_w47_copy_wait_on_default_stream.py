# expect: fail makes the default stream wait for each copy, but the computes run on the current stream: inside a caller's `with torch.cuda.stream(s)` they do not wait
# hint: wait|current stream|default stream|caller|race|copy|before|stale
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

    pending = None  # (index, buffer, event after its copy back)
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        torch.cuda.default_stream(device).wait_event(copied)  # the GPU waits for batch i's copy
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        if pending is not None:  # compute i is queued: now the host may wait for result i - 1
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # free: its last result, i - 2, was consumed
        back_stream.wait_event(computed)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)


answer = pipelined_to_host
