# expect: fail copies batches into a ring of two preallocated device tensors, and the copy of batch i + 2 overwrites the tensor compute i reads without the copy stream waiting for compute i
# hint: ring|preallocat|overwrit|reus|compute i.*(read|still)|copy stream.*wait|wait.*compute|record_stream
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    ring = [None, None]  # two device tensors for the inputs, allocated once

    def send(i):
        b = batches[i]
        with torch.cuda.stream(copy_stream):
            if ring[i % 2] is None:
                ring[i % 2] = torch.empty(b.shape, dtype=b.dtype, device=device)
            ring[i % 2].copy_(b, non_blocking=True)
            return ring[i % 2], copy_stream.record_event()

    pending = None
    ahead = send(0)
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(i + 1)
        compute_stream.wait_event(landed)
        y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            pending = (i, buffer, back_stream.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
