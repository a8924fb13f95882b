# expect: pass a small pipeline class; streams switched with torch.cuda.set_stream and the caller's stream put back in a finally
# hint:
import torch


class _ToHost:
    """Three stages: copies in on one side stream, computes on the caller's current stream,
    copies back on another side stream; the host reads result i - 1 once compute i is queued."""

    def __init__(self, device, buffers, consume):
        self.device = device
        self.buffers = buffers
        self.consume = consume
        self.compute_stream = torch.cuda.current_stream(device)
        self.in_stream = torch.cuda.Stream(device)
        self.out_stream = torch.cuda.Stream(device)
        self.waiting = None  # (index, buffer, event) of the copy back not yet read

    def _on(self, stream):
        torch.cuda.set_stream(stream)

    def load(self, batch):
        self._on(self.in_stream)
        try:
            x = batch.to(self.device, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record(self.in_stream)
        finally:
            self._on(self.compute_stream)
        return x, landed

    def run(self, x, landed, compute):
        landed.wait(self.compute_stream)  # GPU-side wait for the copy in
        x.record_stream(self.compute_stream)
        return compute(x)

    def drain(self):
        if self.waiting is not None:
            i, buffer, landed = self.waiting
            self.waiting = None
            landed.synchronize()  # the host knows the copy back has landed
            self.consume(i, buffer)

    def send_back(self, i, y):
        buffer = self.buffers[i % len(self.buffers)]
        after_compute = torch.cuda.Event()
        after_compute.record(self.compute_stream)
        self.out_stream.wait_event(after_compute)
        y.record_stream(self.out_stream)
        self._on(self.out_stream)
        try:
            buffer.copy_(y, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record(self.out_stream)
        finally:
            self._on(self.compute_stream)
        self.waiting = (i, buffer, landed)


def answer(batches, compute, device, buffers, consume):
    caller_stream = torch.cuda.current_stream(device)
    try:
        p = _ToHost(device, buffers, consume)
        nxt = p.load(batches[0])
        for i in range(len(batches)):
            x, landed = nxt
            if i + 1 < len(batches):
                nxt = p.load(batches[i + 1])
            y = p.run(x, landed, compute)
            p.drain()  # result i - 1: compute i is already queued
            p.send_back(i, y)
        p.drain()
    finally:
        torch.cuda.set_stream(caller_stream)
