# expect: pass
# hint:
# Right: a callable class instance. Copies in on a side stream, computes on the current stream
# after a GPU wait, copies back on a third stream; the host waits one batch late on an event.
import torch


class OverlappedToHost:
    """pipelined_to_host as a callable object; it keeps no state between calls."""

    def _send(self, batch, copy_stream, device):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def __call__(self, batches, compute, device, buffers, consume):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)
        back_stream = torch.cuda.Stream(device)
        n = len(batches)
        ahead = self._send(batches[0], copy_stream, device)
        pending = None  # (index, buffer, event after its copy back)
        for i in range(n):
            x, copied = ahead
            if i + 1 < n:
                ahead = self._send(batches[i + 1], copy_stream, device)
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            if pending is not None:  # compute i is queued: now the host may wait for copy back i - 1
                j, buf, landed = pending
                landed.synchronize()
                consume(j, buf)
            buf = buffers[i % 2]  # its previous result (i - 2) was consumed already
            back_stream.wait_stream(compute_stream)
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buf.copy_(y, non_blocking=True)
                pending = (i, buf, back_stream.record_event())
        j, buf, landed = pending
        landed.synchronize()
        consume(j, buf)


answer = OverlappedToHost()
