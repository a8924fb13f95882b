# expect: fail buffers made with zeros_like on the compute stream, filled with copy_ on the side stream, no wait after allocating
# hint: allocated on default stream
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    bufs = [torch.zeros_like(b, device=device) for b in batches]
    events = [torch.cuda.Event() for _ in batches]
    def load(i):
        with torch.cuda.stream(side):
            bufs[i].copy_(batches[i], non_blocking=True)
            events[i].record()
    load(0)
    out = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            load(i + 1)
        cur.wait_event(events[i])
        out.append(compute(bufs[i]))
    return out
