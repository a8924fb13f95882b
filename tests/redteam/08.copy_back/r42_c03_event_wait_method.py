# expect: pass compute_stream.record_event() then done.wait(back_stream)
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

    pending = []  # (i, buffer, event after its copy back), oldest first
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        done = compute_stream.record_event()
        done.wait(back_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf = buffers[i % 2]
            buf.copy_(y, non_blocking=True)
            back = back_stream.record_event()
        pending.append((i, buf, back))
        if len(pending) > 1:  # result i - 1, one batch late: compute i is queued already
            j, b, e = pending.pop(0)
            e.synchronize()
            consume(j, b)
    for j, b, e in pending:
        e.synchronize()
        consume(j, b)
