# expect: pass a class holding the three streams, with one method per stage
# hint: 
import torch


class ThreeStagePipeline:
    """Copies in on one side stream, computes on the current stream, copies back on another."""

    def __init__(self, device, compute):
        self.device, self.compute = device, compute
        self.compute_stream = torch.cuda.current_stream(device)
        self.in_stream = torch.cuda.Stream(device)
        self.out_stream = torch.cuda.Stream(device)

    def copy_in(self, batch):
        with torch.cuda.stream(self.in_stream):
            x = batch.to(self.device, non_blocking=True)
            return x, self.in_stream.record_event()

    def run(self, staged):
        x, landed = staged
        self.compute_stream.wait_event(landed)
        x.record_stream(self.compute_stream)
        return self.compute(x)

    def copy_out(self, y, buffer):
        self.out_stream.wait_stream(self.compute_stream)
        with torch.cuda.stream(self.out_stream):
            y.record_stream(self.out_stream)
            buffer.copy_(y, non_blocking=True)
            return self.out_stream.record_event()


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    p = ThreeStagePipeline(device, compute)
    staged = p.copy_in(batches[0])
    unread = None  # (index, buffer, event after its copy back)
    for i in range(len(batches)):
        current = staged
        if i + 1 < len(batches):
            staged = p.copy_in(batches[i + 1])
        y = p.run(current)
        if unread is not None:  # compute i is queued: now read result i - 1
            unread[2].synchronize()
            consume(unread[0], unread[1])
        buffer = buffers[i % 2]
        unread = (i, buffer, p.copy_out(y, buffer))
    unread[2].synchronize()
    consume(unread[0], unread[1])
