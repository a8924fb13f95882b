# expect: pass a class with pre-made Event objects and event.record(stream), event.wait(stream), references kept instead of record_stream, a query() poll for the host wait
# hint:
import time

import torch


class _ToHost:
    def __init__(self, device, buffers, consume):
        self.device = device
        self.buffers = buffers
        self.consume = consume
        self.compute_stream = torch.cuda.current_stream(device)
        self.copy_stream = torch.cuda.Stream(device)
        self.back_stream = torch.cuda.Stream(device)
        self.in_flight = None  # (i, buffer, event, tensors kept alive until it has landed)

    def send(self, batch):
        copied = torch.cuda.Event()
        with torch.cuda.stream(self.copy_stream):
            x = batch.to(self.device, non_blocking=True)
        copied.record(self.copy_stream)
        return x, copied

    def drain(self):
        """Wait (host) for the copy back in flight, then hand its buffer to consume."""
        if self.in_flight is None:
            return
        i, buf, landed, _keep = self.in_flight
        while not landed.query():  # a query() that returned True is a sync with the copy
            time.sleep(0)
        self.in_flight = None  # x and y of batch i: both streams are done with them now
        self.consume(i, buf)

    def send_back(self, i, y, keep):
        buf = self.buffers[i % len(self.buffers)]
        computed = torch.cuda.Event()
        computed.record(self.compute_stream)
        computed.wait(self.back_stream)  # the GPU waits for compute i; the host does not
        with torch.cuda.stream(self.back_stream):
            buf.copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(self.back_stream)
        self.in_flight = (i, buf, landed, keep)


def pipelined_to_host(batches, compute, device, buffers, consume):
    p = _ToHost(device, buffers, consume)
    ahead = p.send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = p.send(batches[i + 1])
        copied.wait(p.compute_stream)
        y = compute(x)
        p.drain()  # result i - 1, while compute i is queued
        p.send_back(i, y, keep=(x, y))
    p.drain()


answer = pipelined_to_host
