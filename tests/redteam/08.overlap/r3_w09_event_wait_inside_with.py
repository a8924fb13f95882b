# expect: fail event.wait() called inside the side stream block, so the side stream waits for itself
# hint: for its own event
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    out, keep = [], []
    for b in batches:
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record()
            ev.wait()
        keep.append(x)
        out.append(compute(x))
    side.wait_stream(torch.cuda.current_stream(device))
    return out
