# expect: fail the event is recorded on the side stream BEFORE the copy is queued: the compute waits for nothing and may read the batch before it lands
# hint: before|event|copy|wait|record|race|landed|arriv
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            ev = side.record_event()  # "mark the copy"
            x = b.to(device, non_blocking=True)
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
