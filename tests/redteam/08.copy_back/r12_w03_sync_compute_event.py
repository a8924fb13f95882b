# expect: fail the host synchronizes with the event after compute i - 1 rather than the one after its copy back, so consume reads a buffer whose copy may not have landed
# hint: wrong event|(event|sync\w*|wait\w*).{0,60}(compute|kernel)|compute.{0,30}event|not.{0,40}(after|cover\w*).{0,30}cop(y|ies)|cop(y|ies).{0,40}(not|hasn't|has not|never|before).{0,30}(land|finish|complet|synchroni|done)|before (the )?cop(y|ies).{0,40}(land|finish|done)|before the host knew that its copy had landed
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
    computed_at = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])  # copy in i + 1 during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        computed_at[i] = computed
        back_stream.wait_event(computed)  # the GPU waits for compute i; the host does not
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)  # buffers[i % 2] held result i - 2, consumed
            landed[i] = back_stream.record_event()
        if i > 0:
            # compute i is queued: the host may wait now, for result i - 1
            computed_at[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    computed_at[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
