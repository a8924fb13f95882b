# expect: fail .cuda() without non_blocking: the host waits for each copy
# hint: non_blocking=True
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        nxt = batches[0].cuda(device)
    for i in range(len(batches)):
        cur.wait_stream(side)
        x = nxt
        x.record_stream(cur)
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                nxt = batches[i + 1].cuda(device)
        out.append(compute(x))
    return out
