# expect: pass every copy queued ahead at once on the side stream (allowed: more device memory), one event per copy; no record_stream: references kept, and the copy stream waits for the compute stream before returning
# hint:
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, events = [], []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            on_device.append(b.to(device, non_blocking=True))
            events.append(copy_stream.record_event())
    results = []
    for x, copied in zip(on_device, events):
        compute_stream.wait_event(copied)
        results.append(compute(x))
    # the device tensors belong to copy_stream's pool: before they are freed, its next work
    # must come after every compute that reads them
    copy_stream.wait_stream(compute_stream)
    del on_device
    return results


answer = pipelined
