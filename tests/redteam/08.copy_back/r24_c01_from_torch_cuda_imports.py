# expect: pass r12_c01 with torch.cuda's Stream, stream and current_stream imported by name (from torch.cuda import ...)
# hint:
# name: pipelined_to_host
from torch.cuda import Stream, current_stream, stream


def pipelined_to_host(batches, compute, device, buffers, consume):
    n = len(batches)
    if n == 0:
        return
    compute_stream = current_stream(device)
    copy_stream = Stream(device)
    back_stream = Stream(device)

    def send(b):
        with stream(copy_stream):
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
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)  # the GPU waits for compute i; the host does not
        with stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)  # buffers[i % 2] held result i - 2, consumed
            landed[i] = back_stream.record_event()
        if i > 0:
            # compute i is queued: the host may wait now, for copy back i - 1 only
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
