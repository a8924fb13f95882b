# expect: fail calls record_stream on the pinned host batch instead of the device tensor: the device tensor's memory is not protected
# hint: record_stream|device tensor|memory|reuse|freed|host|pinned
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return b, x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        b, x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        b.record_stream(cur)
        out.append(compute(x))
    return out
