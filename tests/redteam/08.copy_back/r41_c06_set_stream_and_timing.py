# expect: pass switches streams with torch.cuda.set_stream (restored after), harmless timing events, and a deque of in-flight results
# hint: 
# name: pipelined_to_host
from collections import deque

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    caller = torch.cuda.current_stream(device)
    load = torch.cuda.Stream(device)
    store = torch.cuda.Stream(device)
    start = torch.cuda.Event(enable_timing=True)
    start.record(caller)
    inflight = deque()
    free = deque(buffers)

    def queue_load(b):
        torch.cuda.set_stream(load)
        try:
            x = b.to(device, non_blocking=True)
            e = torch.cuda.Event()
            e.record()
        finally:
            torch.cuda.set_stream(caller)
        return x, e

    nxt = queue_load(batches[0])
    for i in range(len(batches)):
        x, loaded = nxt
        if i + 1 < len(batches):
            nxt = queue_load(batches[i + 1])
        caller.wait_event(loaded)
        x.record_stream(caller)
        y = compute(x)
        while inflight:  # at most one: the previous result
            j, buf, landed = inflight.popleft()
            landed.synchronize()
            consume(j, buf)
            free.append(buf)
        buf = free.popleft()
        store.wait_stream(caller)
        torch.cuda.set_stream(store)
        try:
            y.record_stream(store)
            buf.copy_(y, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record()
        finally:
            torch.cuda.set_stream(caller)
        inflight.append((i, buf, landed))
    while inflight:
        j, buf, landed = inflight.popleft()
        landed.synchronize()
        consume(j, buf)
