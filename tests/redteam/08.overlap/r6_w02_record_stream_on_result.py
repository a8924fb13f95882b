# expect: fail calls record_stream on the compute's result instead of on the copied batch: the batch's memory can be reused by the next copy while its compute reads it
# hint: record_stream|reuse|memory|freed|reference
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        y = compute(x)
        y.record_stream(side)
        out.append(y)
    return out
