# expect: pass a new side stream per batch, .cuda(non_blocking=True), wait_stream and record_stream
# hint: 
import torch
def answer(batches, compute, device):
    cur = torch.cuda.current_stream(device)
    def send(b):
        s = torch.cuda.Stream(device)
        with torch.cuda.stream(s):
            return b.cuda(device, non_blocking=True), s
    out, ahead = [], send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, s = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_stream(s)
        x.record_stream(cur)
        out.append(compute(x))
    return out
