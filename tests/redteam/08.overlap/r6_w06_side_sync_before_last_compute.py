# expect: fail synchronizes the side stream on the host once, after the last copy and before the last compute is queued ("make sure all data is there")
# hint: synchron|host wait|host|last compute|sync
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
        else:
            side.synchronize()
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
