# expect: fail consumes two batches behind, so the copy into a buffer is queued before its previous result was consumed
# hint: reus|overwr|copied into before|(copy|copies) into .{0,40}before .{0,40}consum|before (its|the) (previous )?result (was|is|had been) consumed|not (yet )?consumed|still (held|in use)
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
    pending = []  # (index, buffer, event after its copy back), two in flight: one per buffer
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        pending.append((i, buffer, landed))
        if len(pending) > 2:
            j, b, e = pending.pop(0)
            e.synchronize()
            consume(j, b)
    for j, b, e in pending:
        e.synchronize()
        consume(j, b)


answer = pipelined_to_host
