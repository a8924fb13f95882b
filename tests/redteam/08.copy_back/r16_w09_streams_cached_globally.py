# expect: fail streams cached in a global on the first call: the compute stream goes stale
# hint: cache|global|stale|first call|between calls|current stream|current_stream|default stream
import torch

_streams = {}  # device -> (compute, copy, back): made once, not on every call


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    key = str(device)
    if key not in _streams:
        _streams[key] = (
            torch.cuda.current_stream(device),
            torch.cuda.Stream(device),
            torch.cuda.Stream(device),
        )
    compute_stream, copy_stream, back_stream = _streams[key]

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
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
