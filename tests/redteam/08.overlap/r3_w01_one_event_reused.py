# expect: fail one Event object re-recorded for every batch: compute i waits for copy i+1, so nothing overlaps
# hint: one event reused
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    done = torch.cuda.Event()
    xs, out = [], []
    with torch.cuda.stream(side):
        xs.append(batches[0].to(device, non_blocking=True))
        done.record()
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                xs.append(batches[i + 1].to(device, non_blocking=True))
                done.record()
        cur.wait_event(done)
        out.append(compute(xs[i]))
    side.wait_stream(cur)
    return out
