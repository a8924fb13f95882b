# expect: fail waits for the event of the previous batch (off by one)
# hint: an earlier batch's
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    xs, evs, out = [], [], []
    for i, b in enumerate(batches):
        with torch.cuda.stream(side):
            xs.append(b.to(device, non_blocking=True))
            evs.append(side.record_event())
    # forgot: copies are all queued first here, then computes
        if i >= 1:
            cur.wait_event(evs[i - 1])
            xs[i - 1].record_stream(cur)
            out.append(compute(xs[i - 1]))
    cur.wait_event(evs[-2] if len(evs) > 1 else evs[-1])
    xs[-1].record_stream(cur)
    out.append(compute(xs[-1]))
    return out
