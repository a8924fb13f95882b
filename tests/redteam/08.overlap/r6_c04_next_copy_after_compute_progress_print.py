# expect: pass
# hint:
import torch
def answer(batches, compute, device):
    """The next copy is queued right after compute i (the host runs ahead, so it still runs during
    compute i, as section 8.7 says); a progress print of the batch index, no device data."""
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        print(f"queued batch {i + 1} of {len(batches)}")
    return out
