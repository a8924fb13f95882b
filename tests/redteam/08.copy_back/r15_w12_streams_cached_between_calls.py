# expect: fail streams, the compute stream included, cached at the first call and reused by later calls (a later caller's current stream is ignored)
# hint: between calls|earlier (call|run)|previous call|cache|kept|global|default argument|current stream|current_stream|caller
import torch


_streams = {}  # device -> (compute, copy, back): made once, not on every call


def pipelined_to_host(batches, compute, device, buffers, consume):
    if device not in _streams:
        _streams[device] = (
            torch.cuda.current_stream(device),
            torch.cuda.Stream(device),
            torch.cuda.Stream(device),
        )
    compute_stream, copy_stream, back_stream = _streams[device]

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = None  # (index, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buffer, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)


answer = pipelined_to_host
