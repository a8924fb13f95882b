# expect: fail batches after the first go to the current GPU with .cuda(), not to the device given
# hint: device|cuda:1|current (gpu|device)|given
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    # batch 0 goes on the current stream: nothing runs before it to overlap with
    x = batches[0].to(device, non_blocking=True)
    copied = compute_stream.record_event()
    pending = None
    for i in range(n):
        if i + 1 < n:
            with torch.cuda.stream(copy_stream):
                nxt = batches[i + 1].cuda(non_blocking=True)  # pinned: returns at once
                nxt_copied = copy_stream.record_event()
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        pending = (i, buf, done)
        if i + 1 < n:
            x, copied = nxt, nxt_copied
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
