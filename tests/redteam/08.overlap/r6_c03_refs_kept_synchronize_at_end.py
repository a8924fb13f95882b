# expect: pass
# hint:
import torch
def answer(batches, compute, device):
    """References kept; after the last compute is queued, the host synchronizes (allowed: no
    synchronize until the last compute is queued), so no memory is reused early."""
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    kept, events, out = [], [], []
    def send(b):
        with torch.cuda.stream(side):
            kept.append(b.to(device, non_blocking=True))
            events.append(side.record_event())
    send(batches[0])
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(batches[i + 1])
        cur.wait_event(events[i])
        out.append(compute(kept[i]))
    torch.cuda.synchronize(device)
    return out
