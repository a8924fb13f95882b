# expect: fail copies results back on the compute stream, holding up the next compute
# hint: compute stream|own stream|stream of its own|third stream|side stream|back stream|holds? up
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

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
        if pending is not None:
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        buf.copy_(y, non_blocking=True)  # right behind its compute: no cross-stream wait needed
        pending = (i, buf, compute_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
