# expect: pass A small helper class per buffer slot and explicit torch.cuda.Event objects (record(stream) / wait(stream)); the back stream follows the compute stream with wait_stream, and results are consumed one batch late.
# hint:
# name: pipelined_to_host
from collections import deque

import torch


class _Slot:
    """A pinned result buffer, and the event after the copy into it."""

    def __init__(self, buffer):
        self.buffer = buffer
        self.landed = torch.cuda.Event()
        self.index = None


def pipelined_to_host(batches, compute, device, buffers, consume):
    if not batches:
        return None
    compute_stream = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)
    slots = [_Slot(b) for b in buffers[:2]]
    waiting = deque()  # slots whose copy back is queued, oldest first

    def upload(batch):
        ready = torch.cuda.Event()
        with torch.cuda.stream(h2d):
            x = batch.to(device, non_blocking=True)
        ready.record(h2d)
        return x, ready

    def drain_one():
        slot = waiting.popleft()
        slot.landed.synchronize()  # the host waits for this copy back only
        consume(slot.index, slot.buffer)

    nxt = upload(batches[0])
    for i in range(len(batches)):
        x, ready = nxt
        if i + 1 < len(batches):
            nxt = upload(batches[i + 1])
        ready.wait(compute_stream)
        x.record_stream(compute_stream)
        y = compute(x)
        del x
        d2h.wait_stream(compute_stream)  # covers compute i, queued just now
        slot = slots[i % 2]
        slot.index = i
        with torch.cuda.stream(d2h):
            slot.buffer.copy_(y, non_blocking=True)
        y.record_stream(d2h)
        slot.landed.record(d2h)
        waiting.append(slot)
        if len(waiting) > 1:  # compute i is queued: read result i - 1
            drain_one()
    while waiting:
        drain_one()


answer = pipelined_to_host
