# expect: pass batch 0 copied on the current stream, later batches copied with copy_ into tensors made on the side stream, explicit Event().record / Event.wait, record_stream; one batch ahead
# hint:
import torch


def _to_device_on(stream, host, device):
    with torch.cuda.stream(stream):
        dev = torch.empty_like(host, device=device)  # same shape and dtype, on the device
        dev.copy_(host, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record(stream)
    return dev, ready


def pipelined(batches, compute, device):
    n = len(batches)
    if n == 0:
        return []
    current = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(current)
    first = batches[0].to(device, non_blocking=True)  # on the current stream: nothing to overlap yet
    nxt = _to_device_on(side, batches[1], device) if n > 1 else None
    results = [compute(first)]
    for i in range(1, n):
        dev, ready = nxt
        if i + 1 < n:
            nxt = _to_device_on(side, batches[i + 1], device)  # during compute i
        ready.wait(current)
        dev.record_stream(current)
        results.append(compute(dev))
    return results


answer = pipelined
