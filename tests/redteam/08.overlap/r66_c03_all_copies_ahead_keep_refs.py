# expect: pass
# hint:
# Right: every copy queued ahead (allowed by the prompt), into tensors made with device= and
# filled by copy_(non_blocking=True) on the side stream; no record_stream: references are kept
# and, before returning, the copy stream waits for the compute stream (the prompt's other way).
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, copied = [], []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            x = torch.empty(b.shape, dtype=b.dtype, device=device)  # on copy_stream's pool
            x.copy_(b, non_blocking=True)  # b is pinned: returns at once
            on_device.append(x)
            copied.append(copy_stream.record_event())
    results = []
    for x, event in zip(on_device, copied):
        compute_stream.wait_event(event)
        results.append(compute(x))
    # the tensors in on_device are freed on return: their stream's next work must come after
    # every compute that read them
    copy_stream.wait_stream(compute_stream)
    return results


answer = pipelined
