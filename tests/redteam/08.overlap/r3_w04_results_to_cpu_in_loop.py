# expect: fail a copy of each result to the host inside the loop makes the host wait
# hint: host waited \(\.cpu\(\)\)
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        nxt = batches[0].to(device, non_blocking=True)
        ev = side.record_event()
    for i in range(len(batches)):
        x, e = nxt, ev
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                nxt = batches[i + 1].to(device, non_blocking=True)
                ev = side.record_event()
        cur.wait_event(e)
        x.record_stream(cur)
        out.append(compute(x).cpu())
    return out
