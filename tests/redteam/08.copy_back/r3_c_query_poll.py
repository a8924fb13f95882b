# expect: pass other style: the host polls Event.query() (a query that returned True is a sync, per the prompt) instead of Event.synchronize(), and rotates buffers by swapping a pair rather than indexing i % 2.
# hint:
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    cs = torch.cuda.current_stream(device)
    ins, outs = torch.cuda.Stream(device), torch.cuda.Stream(device)
    cur, other = buffers[0], buffers[1]

    def load(b):
        with torch.cuda.stream(ins):
            t = b.to(device, non_blocking=True)
        return t, ins.record_event()

    ahead = load(batches[0])
    waiting = None
    for i in range(len(batches)):
        x, e = ahead
        if i + 1 < len(batches):
            ahead = load(batches[i + 1])
        cs.wait_event(e)
        x.record_stream(cs)
        y = compute(x)
        outs.wait_stream(cs)
        with torch.cuda.stream(outs):
            y.record_stream(outs)
            cur.copy_(y, non_blocking=True)
        ev = outs.record_event()
        if waiting is not None:
            j, buf, wev = waiting
            while not wev.query():
                pass
            consume(j, buf)
        waiting = (i, cur, ev)
        cur, other = other, cur
    j, buf, wev = waiting
    while not wev.query():
        pass
    consume(j, buf)
