# expect: pass a small Prefetcher class with a collections.deque, copies queued two batches ahead (allowed: further ahead also overlaps), events from Stream.record_event, record_stream on each batch
# hint:
from collections import deque

import torch


class Prefetcher:
    def __init__(self, batches, device, depth=2):
        self.batches, self.device, self.depth = iter(batches), device, depth
        self.stream = torch.cuda.Stream(device)
        self.queue = deque()

    def fill(self):
        while len(self.queue) < self.depth:
            b = next(self.batches, None)
            if b is None:
                return
            with torch.cuda.stream(self.stream):
                self.queue.append((b.to(self.device, non_blocking=True), self.stream.record_event()))

    def take(self, consumer):
        x, ready = self.queue.popleft()
        self.fill()  # the copies after this one go ahead of the compute
        consumer.wait_event(ready)
        x.record_stream(consumer)
        return x


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    main = torch.cuda.current_stream(device)
    feeder = Prefetcher(batches, device)
    feeder.fill()
    return [compute(feeder.take(main)) for _ in batches]
