# expect: fail record_stream given the side stream (where the tensor was allocated) instead of the compute stream
# hint: freed
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    out = []
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            x.record_stream(side)
            return x, side.record_event()
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, e = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(e)
        out.append(compute(x))
    return out
