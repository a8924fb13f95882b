# expect: fail queues the copy of result i into a buffer before consuming result i - 2, which that buffer still holds (two results in flight, two buffers)
# hint: buffer|reuse|overwr|consumed|free|before
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

    pending = []  # (index, buffer, event after its copy back), oldest first
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        buf = buffers[i % 2]  # alternate between the two buffers
        back_stream.wait_event(computed)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending.append((i, buf, back_stream.record_event()))
        if len(pending) > 2:  # keep the GPU two results ahead of the host
            j, old, landed = pending.pop(0)
            landed.synchronize()
            consume(j, old)
    for j, buf, landed in pending:
        landed.synchronize()
        consume(j, buf)


answer = pipelined_to_host
