# expect: fail the copy back to the host is queued on the compute stream, not on a stream of its own, so each copy back holds up the next compute
# hint: compute stream|same stream|current stream|(own|separate|side|third|another|other|extra|back|dedicated) stream|holds? up|one stream|serializ|the stream the computes run on
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    n = len(batches)
    if n == 0:
        return
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    landed = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])  # copy in i + 1 during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buffers[i % 2].copy_(y, non_blocking=True)  # buffers[i % 2] held result i - 2, consumed
        landed[i] = compute_stream.record_event()
        if i > 0:
            # compute i is queued: the host may wait now, for result i - 1
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
