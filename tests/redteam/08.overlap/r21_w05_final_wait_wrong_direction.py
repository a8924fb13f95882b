# expect: fail keeps references instead of record_stream but the final wait goes the wrong way (compute waits for copy): the copy stream never waits for the computes before the tensors are freed
# hint: wait_stream|direction|copy stream wait|reversed|freed|reuse|record_stream
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, events = [], []
    for i, b in enumerate(batches):
        with torch.cuda.stream(copy_stream):
            on_device.append(b.to(device, non_blocking=True))
            events.append(copy_stream.record_event())
        if i >= 1:  # batch i's copy is queued: compute batch i - 1
            compute_stream.wait_event(events[i - 1])
    results = []
    for i, x in enumerate(on_device):
        if i == len(on_device) - 1:
            compute_stream.wait_event(events[i])
        results.append(compute(x))
    # all references kept to here; order the streams before letting them go
    compute_stream.wait_stream(copy_stream)
    return results
