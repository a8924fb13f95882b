# expect: fail runs each compute on a new stream of its own (not on the current stream): the computes are not ordered with the caller's work
# hint: current stream|compute stream|stream
import torch
def answer(batches, compute, device):
    side = torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        s = torch.cuda.Stream(device)
        s.wait_event(ev)
        x.record_stream(s)
        with torch.cuda.stream(s):
            out.append(compute(x))
    return out
