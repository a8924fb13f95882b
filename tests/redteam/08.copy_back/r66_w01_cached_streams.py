# expect: fail streams (the compute stream among them) cached per device at the first call and reused by later calls
# hint: cache|cached|kept between calls|earlier (call|run)|global|first call|current stream
# Wrong: the prompt puts the computes on the *current* stream at the time of the call; a second
# call made inside `with torch.cuda.stream(s)` still waits on the first call's stream.
import torch

_STREAMS = {}  # "so we don't make three streams per call"


def _streams_for(device):
    key = str(device)
    if key not in _STREAMS:
        _STREAMS[key] = (
            torch.cuda.current_stream(device),
            torch.cuda.Stream(device),
            torch.cuda.Stream(device),
        )
    return _STREAMS[key]


def answer(batches, compute, device, buffers, consume):
    compute_stream, copy_stream, back_stream = _streams_for(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)
