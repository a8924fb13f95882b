# expect: pass functools.partial of a general function; copies queued two batches ahead; query() before synchronize(); copy_ with a positional non_blocking
# hint:
import functools
from collections import deque

import torch


def _pipeline(batches, compute, device, buffers, consume, *, ahead=2):
    compute_stream = torch.cuda.current_stream(device)
    streams = {"in": torch.cuda.Stream(device), "out": torch.cuda.Stream(device)}
    queued = deque()

    def enqueue(k):
        with torch.cuda.stream(streams["in"]):
            queued.append((batches[k].to(device, non_blocking=True), streams["in"].record_event()))

    def read(job):
        i, buffer, landed = job
        if not landed.query():  # not there yet: the host waits for this copy only
            landed.synchronize()
        consume(i, buffer)

    for k in range(min(ahead, len(batches))):
        enqueue(k)
    job = None
    for i in range(len(batches)):
        x, copied = queued.popleft()
        if i + ahead < len(batches):
            enqueue(i + ahead)
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if job is not None:
            read(job)
        buffer = buffers[i % 2]
        out = streams["out"]
        out.wait_event(compute_stream.record_event())
        with torch.cuda.stream(out):
            y.record_stream(out)
            buffer.copy_(y, True)
            job = (i, buffer, out.record_event())
    read(job)


answer = functools.partial(_pipeline, ahead=2)
