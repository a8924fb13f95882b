# expect: pass a context-manager class owns the back stream and the one result in flight; __exit__ reads the last result
# hint: 
import torch


class _ResultsHome:
    """Copies results back on a stream of its own and hands each to consume one batch late."""

    def __init__(self, device, buffers, consume):
        self.stream = torch.cuda.Stream(device)
        self.buffers, self.consume = buffers, consume
        self.in_flight = None

    def __enter__(self):
        return self

    def _read(self):
        i, buffer, copied = self.in_flight
        self.in_flight = None
        copied.synchronize()
        self.consume(i, buffer)

    def send(self, i, y, compute_stream):
        if self.in_flight is not None:  # called after compute i is queued
            self._read()
        self.stream.wait_stream(compute_stream)
        buffer = self.buffers[i % len(self.buffers)]
        with torch.cuda.stream(self.stream):
            y.record_stream(self.stream)
            buffer.copy_(y, non_blocking=True)
            self.in_flight = (i, buffer, self.stream.record_event())

    def __exit__(self, kind, value, tb):
        if kind is None and self.in_flight is not None:
            self._read()
        return False


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    with _ResultsHome(device, buffers, consume) as home:
        ahead = send(batches[0])
        for i in range(len(batches)):
            x, landed = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            compute_stream.wait_event(landed)
            x.record_stream(compute_stream)
            home.send(i, compute(x), compute_stream)
