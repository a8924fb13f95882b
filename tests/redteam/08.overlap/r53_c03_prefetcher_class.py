# expect: pass an iterator class that prefetches one batch ahead, batch 0 copied on the current stream, functools.partial for the copy
# hint:
import functools

import torch


class _Prefetcher:
    """Yields device batches; the next one's copy is queued on a side stream before it yields."""

    def __init__(self, batches, device):
        self.batches, self.device = batches, device
        self.compute_stream = torch.cuda.current_stream(device)
        self.copy_stream = torch.cuda.Stream(device)
        self.to_device = functools.partial(torch.Tensor.to, device=device, non_blocking=True)

    def _send(self, i):
        with torch.cuda.stream(self.copy_stream):
            x = self.to_device(self.batches[i])
            return x, self.copy_stream.record_event()

    def __iter__(self):
        # batch 0 on the current stream: nothing runs before it to overlap with
        ahead = (self.to_device(self.batches[0]), None)
        for i in range(len(self.batches)):
            x, landed = ahead
            if i + 1 < len(self.batches):
                ahead = self._send(i + 1)
            if landed is not None:
                self.compute_stream.wait_event(landed)
                x.record_stream(self.compute_stream)
            yield x


def pipelined(batches, compute, device):
    return [compute(x) for x in _Prefetcher(batches, device)]


answer = pipelined
