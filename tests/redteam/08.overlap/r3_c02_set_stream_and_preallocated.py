# expect: pass buffers made on the copy stream with new_empty via set_stream, copy_ into them, events both ways
# hint: 
import torch
def answer(batches, compute, device):
    cur = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    n = len(batches)
    torch.cuda.set_stream(side)
    try:
        bufs = [batches[0].new_empty(b.shape, device=device) for b in batches]
    finally:
        torch.cuda.set_stream(cur)
    ready = [torch.cuda.Event() for _ in range(n)]
    def load(i):
        torch.cuda.set_stream(side)
        bufs[i].copy_(batches[i], non_blocking=True)
        ready[i].record(side)
        torch.cuda.set_stream(cur)
    load(0)
    results = []
    for i in range(n):
        if i + 1 < n:
            load(i + 1)
        ready[i].wait(cur)
        results.append(compute(bufs[i]))
    side.wait_stream(cur)  # the buffers stay alive until the computes are done
    return results
