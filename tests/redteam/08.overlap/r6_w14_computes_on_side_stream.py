# expect: fail computes each batch inside the side stream's block after waiting for the copy there: the computes run on the copy stream, serialising copies and computes
# hint: current stream|compute stream|side stream|copy stream|one stream|overlap
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        for b in batches:
            x = b.to(device, non_blocking=True)
            out.append(compute(x))
    torch.cuda.current_stream(device).wait_stream(side)
    return out
