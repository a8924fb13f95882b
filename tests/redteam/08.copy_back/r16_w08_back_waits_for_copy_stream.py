# expect: fail the copy back waits for the copy-in stream, not for the compute
# hint: wait(s|ed)? for the compute|compute stream|wait_stream|wait_event|waits on the GPU|before the compute|stale|read
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead, pending = send(batches[0]), None
    for i in range(len(batches)):
        x, copied = ahead
        compute_stream.wait_event(copied)
        back_stream.wait_event(copied)  # both wait for batch i on the GPU
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
