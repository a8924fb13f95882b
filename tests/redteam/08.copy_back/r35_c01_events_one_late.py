# expect: pass Classic events pipeline: copies on a side stream with an event each, results copied back on a third stream after an event from the compute stream, the host synchronizing one batch late.
# hint:
# name: pipelined_to_host
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
    pending = None  # (index, buffer, event) of the result copied back but not consumed yet
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]  # its previous result (i - 2) was consumed last iteration
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:  # compute i is queued: now wait for result i - 1
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
