# expect: pass a class with __call__ making a fresh instance per call; torch.cuda.Event().record(stream) and event.wait(stream) for the copy in, wait_stream for the copy back, and the host polls the copy back's event with query() before consuming
# hint:
import time

import torch


class CopyBackPipeline:
    """Three stages: copy in on one side stream, compute on the caller's current stream,
    copy back into two pinned buffers on another side stream; results consumed a batch late.
    Each call makes its own instance: nothing is kept between calls."""

    def __init__(self, device=None):
        if device is not None:
            self.device = device
            self.compute_stream = torch.cuda.current_stream(device)
            self.in_stream = torch.cuda.Stream(device)
            self.out_stream = torch.cuda.Stream(device)

    def __call__(self, batches, compute, device, buffers, consume):
        CopyBackPipeline(device)._run(batches, compute, buffers, consume)

    def _run(self, batches, compute, buffers, consume):
        n = len(batches)
        incoming = self._copy_in(batches[0])
        waiting = None  # (index, buffer, event after its copy back)
        for i in range(n):
            x = incoming
            if i + 1 < n:
                incoming = self._copy_in(batches[i + 1])  # runs during compute i
            y = self._compute(x, compute)
            if waiting is not None:
                self._deliver(waiting, consume)
            waiting = self._copy_out(i, y, buffers[i % len(buffers)])
        self._deliver(waiting, consume)

    def _copy_in(self, batch):
        with torch.cuda.stream(self.in_stream):
            x = batch.to(self.device, non_blocking=True)
            done = torch.cuda.Event()
            done.record(self.in_stream)
        return x, done

    def _compute(self, incoming, compute):
        x, done = incoming
        done.wait(self.compute_stream)  # the GPU waits for the copy; the host does not
        x.record_stream(self.compute_stream)
        return compute(x)

    def _copy_out(self, i, y, buffer):
        self.out_stream.wait_stream(self.compute_stream)  # everything up to compute i
        y.record_stream(self.out_stream)
        with torch.cuda.stream(self.out_stream):
            buffer.copy_(y, non_blocking=True)
        landed = self.out_stream.record_event()
        return i, buffer, landed

    @staticmethod
    def _deliver(waiting, consume):
        i, buffer, landed = waiting
        while not landed.query():  # the host waits for this copy only
            time.sleep(0)
        consume(i, buffer)


answer = CopyBackPipeline()
