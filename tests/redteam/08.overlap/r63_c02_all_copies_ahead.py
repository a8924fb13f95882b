# expect: pass
# hint:
# RIGHT (prompt allows it): every batch's copy queued up front, each with its own event; the
# compute stream waits per event; references kept, and the copy stream waits for the computes.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, events = [], []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            on_device.append(b.to(device, non_blocking=True))
            e = torch.cuda.Event()
            e.record(copy_stream)
            events.append(e)
    results = []
    for x, e in zip(on_device, events):
        e.wait(compute_stream)  # the GPU waits for this batch's copy; the host does not
        results.append(compute(x))
    # references kept until here: the copy stream's pool may reuse them only after the computes
    copy_stream.wait_stream(compute_stream)
    return results
