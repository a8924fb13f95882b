# expect: pass all copies queued up front with explicit Event objects, then the computes
# hint: 
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], every copy queued before the first compute."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    staged = []
    with torch.cuda.stream(copy_stream):
        for b in batches:
            x = b.to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record()  # on copy_stream, the current stream inside the block
            staged.append((x, ev))
    out = []
    while staged:
        x, ev = staged.pop(0)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        out.append(compute(x))
        del x
    return out
