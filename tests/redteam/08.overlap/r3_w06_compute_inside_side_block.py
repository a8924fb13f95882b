# expect: fail the compute is queued inside the side stream's with block
# hint: ran on side stream
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        x = batches[0].to(device, non_blocking=True)
        for i in range(len(batches)):
            nxt = batches[i + 1].to(device, non_blocking=True) if i + 1 < len(batches) else None
            out.append(compute(x))
            x = nxt
    torch.cuda.current_stream(device).wait_stream(side)
    return out
