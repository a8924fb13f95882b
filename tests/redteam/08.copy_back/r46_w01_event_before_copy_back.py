# expect: fail the event is recorded on the back stream BEFORE the copy into the buffer, so its synchronize does not cover the copy: consume reads the buffer too early
# hint: early|landed|before (the|its) copy|event.*(cover|after)|not.*synchron|read
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
            landed = back_stream.record_event()  # marks the copy
            buffer.copy_(y, non_blocking=True)
        if pending is not None:
            j, buf, event = pending
            event.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, event = pending
    event.synchronize()
    consume(j, buf)


answer = pipelined_to_host
