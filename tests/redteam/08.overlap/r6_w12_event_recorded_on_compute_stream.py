# expect: fail the event after each copy is recorded with ev.record() outside the side stream's block, i.e. on the compute stream: the compute waits for nothing that covers the copy
# hint: record|event|copy stream|side stream|wait|race|landed
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record()  # current stream: the compute stream
        return x, ev
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
