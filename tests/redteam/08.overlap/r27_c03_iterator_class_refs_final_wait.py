# expect: pass an iterator object yields the device batches, queueing the next copy before handing one over; it keeps every device batch and, when exhausted (after the last compute is queued), makes the copy stream wait for the compute stream before dropping them
# hint: 
import torch


class DeviceBatches:
    """Iterate over pinned host batches on the device, each copy queued one batch ahead."""

    def __init__(self, batches, device):
        self.batches, self.device = batches, device
        self.compute_stream = torch.cuda.current_stream(device)
        self.copy_stream = torch.cuda.Stream(device)
        self.alive = []  # references instead of record_stream
        self.position = 0
        self.ahead = self._queue_next()

    def _queue_next(self):
        if self.position == len(self.batches):
            return None
        b = self.batches[self.position]
        self.position += 1
        with torch.cuda.stream(self.copy_stream):
            x = b.to(self.device, non_blocking=True)
        self.alive.append(x)
        return x, self.copy_stream.record_event()

    def __iter__(self):
        return self

    def __next__(self):
        if self.ahead is None:
            # every compute is queued: the copy stream's later work waits for them all
            self.copy_stream.wait_stream(self.compute_stream)
            self.alive.clear()
            raise StopIteration
        x, landed = self.ahead
        self.ahead = self._queue_next()
        self.compute_stream.wait_event(landed)
        return x


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    return [compute(x) for x in DeviceBatches(batches, device)]


answer = pipelined
