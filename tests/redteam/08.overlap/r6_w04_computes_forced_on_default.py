# expect: fail runs every compute inside `with torch.cuda.stream(torch.cuda.default_stream(device))`: the computes leave the caller's current stream when it is not the default one
# hint: current stream|default stream|caller
import torch
def answer(batches, compute, device):
    comp, side = torch.cuda.default_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        with torch.cuda.stream(comp):
            comp.wait_event(ev)
            x.record_stream(comp)
            out.append(compute(x))
    return out
