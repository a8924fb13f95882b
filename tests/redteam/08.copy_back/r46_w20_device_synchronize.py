# expect: fail the host waits with torch.cuda.synchronize(device) for result i - 1: a device-wide sync covers compute i, the newest compute, while batches remain
# hint: newest|stall|idle|busy|host wait|cover|synchron|next (batch|compute)
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
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, buf, event = pending
            torch.cuda.synchronize(device)
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, event = pending
    event.synchronize()
    consume(j, buf)


answer = pipelined_to_host
