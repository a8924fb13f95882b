# expect: fail the host waits for an event after the compute, not after the copy to the host
# hint: after the copy|copy to the host|copy back|landed|event|before a sync|host read|record_event
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
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        ready = compute_stream.record_event()  # result i is computed
        if pending is not None:
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_event(ready)  # the copy back waits for the compute on the GPU
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        pending = (i, buf, ready)
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
