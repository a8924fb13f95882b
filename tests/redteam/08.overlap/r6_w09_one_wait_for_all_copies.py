# expect: fail queues every copy first, then makes the compute stream wait once for the whole copy stream: compute 0 waits for all the copies, nothing overlaps
# hint: overlap|all .*cop|every copy|wait_stream|before .*compute|copy of batch|serial
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    with torch.cuda.stream(side):
        on_device = [b.to(device, non_blocking=True) for b in batches]
    cur.wait_stream(side)
    out = []
    for x in on_device:
        x.record_stream(cur)
        out.append(compute(x))
    return out
