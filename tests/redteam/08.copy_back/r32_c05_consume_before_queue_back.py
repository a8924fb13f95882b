# expect: pass queues compute i, then consumes result i - 1 (event sync), then queues the copy back of result i; a small class holds the streams
# hint: 
import torch


class _Pipe:
    def __init__(self, device):
        self.device = device
        self.compute = torch.cuda.current_stream(device)
        self.up = torch.cuda.Stream(device)
        self.down = torch.cuda.Stream(device)

    def upload(self, batch):
        with torch.cuda.stream(self.up):
            t = batch.to(self.device, non_blocking=True)
            return t, self.up.record_event()

    def download(self, y, buf):
        done = self.compute.record_event()
        self.down.wait_event(done)
        with torch.cuda.stream(self.down):
            y.record_stream(self.down)
            buf.copy_(y, non_blocking=True)
            return self.down.record_event()


def pipelined_to_host(batches, compute, device, buffers, consume):
    p = _Pipe(device)
    nxt = p.upload(batches[0])
    prev = None
    for i in range(len(batches)):
        x, ev = nxt
        if i + 1 < len(batches):
            nxt = p.upload(batches[i + 1])
        p.compute.wait_event(ev)
        x.record_stream(p.compute)
        y = compute(x)
        if prev is not None:  # compute i is queued: waiting for copy back i - 1 leaves the GPU busy
            j, jbuf, jev = prev
            jev.synchronize()
            consume(j, jbuf)
        buf = buffers[i % 2]  # held result i - 2, consumed last iteration
        prev = (i, buf, p.download(y, buf))
    j, jbuf, jev = prev
    jev.synchronize()
    consume(j, jbuf)


answer = pipelined_to_host
