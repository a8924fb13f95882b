# expect: pass a deque keeping copies two batches ahead, Stream.record_event after each copy, wait_event + record_stream per compute
# hint: 
import torch

from collections import deque


def pipelined(batches, compute, device):
    cur = torch.cuda.current_stream(device)
    cs = torch.cuda.Stream(device)
    pending = deque()
    results = []
    n = len(batches)
    nxt = 0

    def enqueue():
        nonlocal nxt
        with torch.cuda.stream(cs):
            t = batches[nxt].to(device, non_blocking=True)
        ev = cs.record_event()
        pending.append((t, ev))
        nxt += 1

    while nxt < min(2, n):
        enqueue()
    while pending:
        t, ev = pending.popleft()
        if nxt < n:
            enqueue()
        cur.wait_event(ev)
        t.record_stream(cur)
        results.append(compute(t))
    return results


answer = pipelined
