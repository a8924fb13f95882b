# expect: pass other style: no record_stream at all; instead (as the prompt allows) a reference to every device tensor is kept until the host knows the stream that reads it is done: x_i and y_i live in a per-batch slot until the copy back of result i has landed (that copy waited for compute i, which waited for copy in i). Three-slot bookkeeping with explicit torch.cuda.Event objects and e.wait(stream).
# hint:
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    up, down = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)
    slots = {}  # i -> dict(x=..., y=..., up=Event, down=Event)

    def queue_up(i):
        with torch.cuda.stream(up):
            x = batches[i].to(device, non_blocking=True)
        e = torch.cuda.Event()
        e.record(up)
        slots[i] = {"x": x, "up": e}

    def retire(j):
        s = slots.pop(j)
        s["down"].synchronize()
        consume(j, buffers[j % 2])  # x and y of batch j are dropped only now

    queue_up(0)
    for i in range(n):
        if i + 1 < n:
            queue_up(i + 1)
        s = slots[i]
        s["up"].wait(compute_stream)
        s["y"] = compute(s["x"])
        done = torch.cuda.Event()
        done.record(compute_stream)
        done.wait(down)
        with torch.cuda.stream(down):
            buffers[i % 2].copy_(s["y"], non_blocking=True)
        s["down"] = torch.cuda.Event()
        s["down"].record(down)
        if i >= 1:
            retire(i - 1)
    retire(n - 1)
