# expect: pass other style: a small helper class owning the pinned ring; it hands out a free buffer (consuming the oldest pending result first when none is free), keeps a reference to each device result until its copy is known to have landed (instead of record_stream for y), and drains in order at the end.
# hint:
# name: pipelined_to_host

from collections import deque

import torch


class HostRing:
    def __init__(self, buffers, stream, consume):
        self.free = deque(buffers)
        self.pending = deque()  # (i, buffer, event, y kept alive)
        self.stream, self.consume = stream, consume

    def _retire_oldest(self):
        i, buf, ev, _y = self.pending.popleft()
        ev.synchronize()
        self.consume(i, buf)
        self.free.append(buf)

    def retire_all_but(self, keep):
        while len(self.pending) > keep:
            self._retire_oldest()

    def put(self, i, y, after):
        if not self.free:
            self._retire_oldest()
        buf = self.free.popleft()
        self.stream.wait_event(after)
        with torch.cuda.stream(self.stream):
            buf.copy_(y, non_blocking=True)
            ev = self.stream.record_event()
        self.pending.append((i, buf, ev, y))


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    ring = HostRing(buffers, torch.cuda.Stream(device), consume)
    with torch.cuda.stream(copy_stream):
        x_next = batches[0].to(device, non_blocking=True)
        ev_next = copy_stream.record_event()
    for i in range(len(batches)):
        x, ev = x_next, ev_next
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)
                ev_next = copy_stream.record_event()
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        y = compute(x)
        ring.put(i, y, compute_stream.record_event())
        ring.retire_all_but(1)  # consume all but the newest result
    ring.retire_all_but(0)
