# expect: fail the host polls event.query() in the loop: a host wait
# hint: event\.query\(\) polled
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    out = []
    with torch.cuda.stream(side):
        nxt = batches[0].to(device, non_blocking=True)
        ev = side.record_event()
    for i in range(len(batches)):
        x, e = nxt, ev
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                nxt = batches[i + 1].to(device, non_blocking=True)
                ev = side.record_event()
        spins = 0
        while not e.query():
            spins += 1
            if spins > 10_000_000:
                break
        x.record_stream(cur)
        out.append(compute(x))
    return out
