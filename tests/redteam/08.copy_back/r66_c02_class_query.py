# expect: pass
# hint:
# Right: a callable class instance; the host learns that a copy back has landed by polling
# Event.query() until it returns True (the prompt allows a query() that returned True).
import time

import torch


class CopyBackPipeline:
    """Three streams per call: copies in, computes (the caller's current stream), copies back."""

    def __init__(self, poll_s=0.0):
        self.poll_s = poll_s

    def _landed(self, event):
        while not event.query():  # the host waits; compute i is queued already
            if self.poll_s:
                time.sleep(self.poll_s)

    def __call__(self, batches, compute, device, buffers, consume):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
        copies = []
        with torch.cuda.stream(copy_stream):
            x = batches[0].to(device, non_blocking=True)
            copies.append((x, copy_stream.record_event()))
        waiting = []  # [(index, buffer, event)], at most one
        for i in range(len(batches)):
            if i + 1 < len(batches):
                with torch.cuda.stream(copy_stream):
                    nxt = batches[i + 1].to(device, non_blocking=True)
                    copies.append((nxt, copy_stream.record_event()))
            x, copied = copies.pop(0)
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            del x
            back_stream.wait_stream(compute_stream)
            buffer = buffers[i % len(buffers)]
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buffer.copy_(y, non_blocking=True)
                event = torch.cuda.Event()
                event.record(back_stream)
            del y
            for j, b, e in waiting:
                self._landed(e)
                consume(j, b)
            waiting = [(i, buffer, event)]
        for j, b, e in waiting:
            self._landed(e)
            consume(j, b)


answer = CopyBackPipeline()
