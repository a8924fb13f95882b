# expect: fail queues the next copy and the compute inside one `with torch.cuda.stream(copy_stream)` block: each compute runs on the copy stream after the next batch's copy (no copy/compute overlap), and the back stream waits for the caller's stream, where no compute ran, so copies back can read unfinished results
# hint: copy stream|compute stream|wrong stream|current stream|overlap|race|wait_stream|side stream
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
        with torch.cuda.stream(copy_stream):
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])  # runs during compute i
            torch.cuda.current_stream(device).wait_event(copied)
            x.record_stream(torch.cuda.current_stream(device))
            y = compute(x)
        if pending is not None:  # compute i is queued: now wait for copy back i - 1
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # its last result (i - 2) was consumed at step i - 1
        back_stream.wait_stream(compute_stream)  # the GPU waits for compute i
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
