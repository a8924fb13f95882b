# expect: fail caches the (compute, copy) streams in a module-level dict on the first call: later calls reuse a stale compute stream (not the current one, e.g. inside `with torch.cuda.stream(s)`) and an old copy stream
# hint: between calls|cach|global|stale|state|previous|earlier|current.stream|default.stream
# name: pipelined
import torch

_STREAMS = {}  # per device, made once: no new streams on every call


def pipelined(batches, compute, device):
    key = str(device)
    if key not in _STREAMS:
        _STREAMS[key] = (torch.cuda.current_stream(device), torch.cuda.Stream(device))
    compute_stream, copy_stream = _STREAMS[key]

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
