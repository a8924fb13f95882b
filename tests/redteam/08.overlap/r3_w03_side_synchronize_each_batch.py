# expect: fail the host waits for the side stream before each compute
# hint: freed|host waited
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        nxt = batches[0].to(device, non_blocking=True)
    for i in range(len(batches)):
        side.synchronize()
        x = nxt
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                nxt = batches[i + 1].to(device, non_blocking=True)
        out.append(compute(x))
    return out
