# expect: fail computes forced onto torch.cuda.default_stream(device): inside a caller's `with torch.cuda.stream(s)` they leave the current stream
# hint: current stream|default stream|caller|which stream|wrong stream|torch\.cuda\.stream
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.default_stream(device)  # the GPU's main queue
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
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        with torch.cuda.stream(compute_stream):
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
