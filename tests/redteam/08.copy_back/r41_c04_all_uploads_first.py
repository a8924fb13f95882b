# expect: pass every batch's upload queued before the first compute (the prompt allows copies further ahead), results copied back one batch late
# hint: 
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    cur = torch.cuda.current_stream(device)
    up = torch.cuda.Stream(device)
    down = torch.cuda.Stream(device)
    staged = []
    with torch.cuda.stream(up):
        for b in batches:
            x = torch.empty(b.shape, dtype=b.dtype, device=device)
            x.copy_(b, non_blocking=True)
            staged.append((x, up.record_event()))
    prev = None
    for i, (x, ready) in enumerate(staged):
        cur.wait_event(ready)
        x.record_stream(cur)
        y = compute(x)
        staged[i] = None
        del x
        if prev is not None:
            prev[2].synchronize()
            consume(prev[0], prev[1])
        down.wait_stream(cur)
        buf = buffers[i & 1]
        with torch.cuda.stream(down):
            y.record_stream(down)
            buf.copy_(y, non_blocking=True)
            prev = (i, buf, down.record_event())
    prev[2].synchronize()
    consume(prev[0], prev[1])
