# expect: pass
# hint:
# name: pipelined
import torch


class _Prefetcher:
    """One batch ahead on a side stream, made anew for each call."""

    def __init__(self, batches, device):
        self.batches = iter(batches)
        self.device = device
        self.stream = torch.cuda.Stream(device)
        self.next_x = None
        self._preload()

    def _preload(self):
        batch = next(self.batches, None)
        if batch is None:
            self.next_x = None
            return
        with torch.cuda.stream(self.stream):
            self.next_x = batch.to(self.device, non_blocking=True)

    def next(self):
        current = torch.cuda.current_stream(self.device)
        x = self.next_x
        if x is None:
            return None
        current.wait_stream(self.stream)  # only this batch's copy is queued there yet
        x.record_stream(current)
        self._preload()  # the next copy, queued before this batch's compute
        return x


def pipelined(batches, compute, device):
    prefetcher = _Prefetcher(batches, device)
    results = []
    x = prefetcher.next()
    while x is not None:
        results.append(compute(x))
        x = prefetcher.next()
    return results
