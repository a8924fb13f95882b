# expect: pass functools.partial over a helper with a keyword; a generator yields device tensors; the pending result kept in a list
# hint:
import functools

import torch


def _arrivals(batches, device, stream):
    """Yield (x, event) for each batch, queueing the copy of the next before yielding."""
    def send(b):
        with torch.cuda.stream(stream):
            t = b.to(device, non_blocking=True)
            e = torch.cuda.Event()
            e.record()  # the current stream here is `stream`
        return t, e

    nxt = send(batches[0])
    for k in range(1, len(batches)):
        cur, nxt = nxt, send(batches[k])
        yield cur
    yield nxt


def _to_host(batches, compute, device, buffers, consume, *, n_buffers):
    stream = torch.cuda.current_stream(device)
    copy_in, copy_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    waiting = []  # at most one entry: (i, buffer, event)
    for i, (x, ready) in enumerate(_arrivals(batches, device, copy_in)):
        ready.wait(stream)  # the compute stream waits on the GPU
        x.record_stream(stream)
        y = compute(x)
        copy_out.wait_stream(stream)
        target = buffers[i % n_buffers]
        with torch.cuda.stream(copy_out):
            target.copy_(y, non_blocking=True)
            y.record_stream(copy_out)
            ev = torch.cuda.Event()
            ev.record(copy_out)
        while waiting:
            j, buf, e = waiting.pop()
            e.synchronize()
            consume(j, buf)
        waiting.append((i, target, ev))
    j, buf, e = waiting.pop()
    e.synchronize()
    consume(j, buf)


answer = functools.partial(_to_host, n_buffers=2)
