# expect: fail consume lags two results behind: result i is copied into buffers[i % 2] while that buffer still holds result i - 2, not yet consumed (overwritten before consume returned)
# hint: overwrit|not (yet )?(been )?consumed|before (its|the) (result|previous|old|earlier).{0,40}consum|(still|yet).{0,30}(unconsumed|in use|being read)|buffer.{0,50}(reus|not (yet )?free|in use)|two (results|batches|steps) (behind|in flight|late)|lag
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    n = len(batches)
    if n == 0:
        return
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

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
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)  # the GPU waits for compute i; the host does not
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed[i] = back_stream.record_event()
        if i > 1:
            # two buffers: keep two results in flight, hand over the older one
            landed[i - 2].synchronize()
            consume(i - 2, buffers[(i - 2) % 2])
    for j in range(max(0, n - 2), n):
        landed[j].synchronize()
        consume(j, buffers[j % 2])
