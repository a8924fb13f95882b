# expect: fail queues back_stream.wait_stream(compute_stream) for copy back i first, then records the event it syncs to read result i - 1: that event sits behind the wait for compute i, so each host wait covers the newest compute queued
# hint: newest compute|compute i|covers|wait_stream|event (recorded )?(after|behind)|order|stall|idle
import torch


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

    ahead, pending = send(batches[0]), None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)  # the GPU waits for compute i
        if pending is not None:  # mark the end of copy back i - 1 on the back stream
            j, buf, _ = pending
            back_stream.record_event().synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # its last result (i - 2) was consumed at step i - 1
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
