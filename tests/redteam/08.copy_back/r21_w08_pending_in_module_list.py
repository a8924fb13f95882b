# expect: fail keeps the not-yet-consumed result in a module-level list and never clears it after the final consume: the next call first consumes the previous call's last result (wrong index and buffer)
# hint: module|global|between calls|previous call|stale|cleared|state|kept
import torch

_pending = []  # result copied back, not yet consumed


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if _pending:  # compute i is queued: now wait for copy back i - 1
            j, buf, landed = _pending.pop()
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # its last result (i - 2) was consumed at step i - 1
        back_stream.wait_stream(compute_stream)  # the GPU waits for compute i
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            _pending.append((i, buf, back_stream.record_event()))
    j, buf, landed = _pending[-1]
    landed.synchronize()
    consume(j, buf)
