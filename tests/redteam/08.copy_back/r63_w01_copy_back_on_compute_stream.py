# expect: fail copies each result back on the compute (current) stream instead of a stream of its own
# hint: compute stream|current stream|stream of its own|third stream|side stream|same stream|holds? up the next compute|copies? (back|to the host).*(stream)
# Wrong: the prompt says "not on the compute stream (a copy queued there holds up the next compute)".
# Values, buffers and the one-batch-late host wait are all right.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        buffers[i % 2].copy_(y, non_blocking=True)  # queued on the compute stream, right behind compute i
        pending = (i, compute_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
