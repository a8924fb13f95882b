# expect: pass references kept (no record_stream) until the host has synced past their use; Stream.synchronize of the copy-back stream before copy i is queued; final device synchronize
# hint:
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)

    def upload(b):
        with torch.cuda.stream(h2d):
            return b.to(device, non_blocking=True), h2d.record_event()

    # kept alive until the host has synchronized with the copy back that follows their use
    # (that copy waited for the compute that read x), instead of record_stream
    unread = None  # (i, buffer, x, y): result i's copy back is queued, not yet read
    staged = upload(batches[0])
    for i, _ in enumerate(batches):
        x, ready = staged
        if i + 1 < len(batches):
            staged = upload(batches[i + 1])
        compute_stream.wait_event(ready)
        y = compute(x)
        if unread is not None:
            d2h.synchronize()  # only result i - 1's copy is queued on d2h: not compute i
            j, buffer, _, _ = unread
            consume(j, buffer)
            unread = None  # now x and y of batch i - 1 may go
        buffer = buffers[i & 1]
        d2h.wait_stream(compute_stream)
        with torch.cuda.stream(d2h):
            buffer.copy_(y, non_blocking=True)
        unread = (i, buffer, x, y)
        del x, y
    torch.cuda.synchronize(device)  # every compute is queued: nothing left to overlap
    j, buffer, _, _ = unread
    consume(j, buffer)
    del unread
