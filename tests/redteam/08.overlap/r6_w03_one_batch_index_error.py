# expect: fail primes two batches before the loop (batches[1] unconditionally): IndexError with one batch
# hint: one batch|1 batch|single|IndexError|index|raise|exception
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    pending = [send(batches[0]), send(batches[1])]
    out = []
    for i in range(len(batches)):
        x, ev = pending.pop(0)
        if i + 2 < len(batches):
            pending.append(send(batches[i + 2]))
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
