# expect: pass
# hint:
import torch
def answer(batches, compute, device):
    """All copies queued up front on the side stream, an event after each; compute i waits for
    event i only, so copy i + 1 runs during compute i; record_stream on the compute stream."""
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    staged = []
    with torch.cuda.stream(side):
        for b in batches:
            x = b.to(device, non_blocking=True)
            staged.append((x, side.record_event()))
    out = []
    for x, ev in staged:
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
