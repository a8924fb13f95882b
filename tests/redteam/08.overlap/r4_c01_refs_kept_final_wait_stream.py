# expect: pass
# hint: 
import torch
def answer(batches, compute, device):
    """References kept in a list; the compute stream waits with wait_stream queued before the next copy;
    at the end the copy stream waits for the compute stream (no record_stream)."""
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    kept, out = [], []
    with torch.cuda.stream(side):
        kept.append(batches[0].to(device, non_blocking=True))
    for i in range(len(batches)):
        cur.wait_stream(side)  # covers copy i only: copy i + 1 is not queued yet
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                kept.append(batches[i + 1].to(device, non_blocking=True))
        out.append(compute(kept[i]))
    side.wait_stream(cur)
    return out
