# expect: fail each result is sent back with y.to("cpu", non_blocking=True) into new pinned memory, then copied into a buffer on the host
# hint: new pinned|pinned memory|into (the|one of the) buffers|buffers|to\(.cpu|\.cpu|allocat|host copy|extra copy
# Wrong: the two buffers are "all the pinned memory there is for results": each result must be
# copied from the device into one of them; here every result gets fresh pinned memory, and
# the host makes a second copy of it.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

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
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            staged = y.to("cpu", non_blocking=True)  # as section 8.8's results_to_host
            landed = back_stream.record_event()
        if pending is not None:
            j, s, e = pending
            e.synchronize()
            buf = buffers[j % 2]
            buf.copy_(s)  # the data has landed: hand it over in the caller's buffer
            consume(j, buf)
        pending = (i, staged, landed)
    j, s, e = pending
    e.synchronize()
    buf = buffers[j % 2]
    buf.copy_(s)
    consume(j, buf)
