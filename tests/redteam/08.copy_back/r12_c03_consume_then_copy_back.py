# expect: pass
# hint:
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    n = len(batches)
    cur = torch.cuda.current_stream(device)
    side_in = torch.cuda.Stream(device)
    side_out = torch.cuda.Stream(device)

    def stage(b):
        with torch.cuda.stream(side_in):
            t = b.to(device, non_blocking=True)
        ready = torch.cuda.Event()
        ready.record(side_in)
        return t, ready

    def hand_over(j, ev):
        ev.synchronize()
        consume(j, buffers[j % 2])

    nxt = stage(batches[0]) if n else None
    prev = None  # (index, event after its copy back) of the result not yet consumed
    for i in range(n):
        x, ready = nxt
        if i + 1 < n:
            nxt = stage(batches[i + 1])
        ready.wait(cur)  # Event.wait(stream): the GPU waits, the host does not
        x.record_stream(cur)
        y = compute(x)
        if prev is not None:  # compute i is queued: free the other buffer first
            hand_over(*prev)
        finished = torch.cuda.Event()
        finished.record(cur)
        finished.wait(side_out)
        with torch.cuda.stream(side_out):
            y.record_stream(side_out)
            buffers[i % 2].copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(side_out)
        prev = (i, landed)
    if prev is not None:
        hand_over(*prev)
