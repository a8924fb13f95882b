# expect: fail keeps two results in flight with two buffers: copy i goes into buffer i % 2 before result i - 2 in it is consumed
# hint: buffer|overwr|reus|before (it was|its result was|being) consumed|consum
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
    pending = []  # up to two results in flight, one per buffer: more overlap
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)  # compute i is queued: now the host may wait for result i - 1
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending.append((i, buf, back_stream.record_event()))
        if len(pending) > 2:  # the oldest result: two batches late, the GPU far ahead
            j, old, landed = pending.pop(0)
            landed.synchronize()
            consume(j, old)
    for j, buf, landed in pending:
        landed.synchronize()
        consume(j, buf)


answer = pipelined_to_host
