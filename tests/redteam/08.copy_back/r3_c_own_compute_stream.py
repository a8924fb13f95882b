# expect: pass other style (borderline): the computes run on a stream of their own too (three side streams); the caller's current stream waits for the compute stream at the end.
# hint:
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    caller = torch.cuda.current_stream(device)
    s_in, s_k, s_out = (torch.cuda.Stream(device) for _ in range(3))
    s_in.wait_stream(caller)
    s_k.wait_stream(caller)

    def load(k):
        with torch.cuda.stream(s_in):
            t = batches[k].to(device, non_blocking=True)
            return t, s_in.record_event()

    ahead, prev = load(0), None
    for i in range(len(batches)):
        x, e = ahead
        if i + 1 < len(batches):
            ahead = load(i + 1)
        with torch.cuda.stream(s_k):
            s_k.wait_event(e)
            x.record_stream(s_k)
            y = compute(x)
        s_out.wait_stream(s_k)
        with torch.cuda.stream(s_out):
            y.record_stream(s_out)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed = s_out.record_event()
        if prev is not None:
            prev[1].synchronize()
            consume(prev[0], buffers[prev[0] % 2])
        prev = (i, landed)
    prev[1].synchronize()
    consume(prev[0], buffers[prev[0] % 2])
    caller.wait_stream(s_k)
