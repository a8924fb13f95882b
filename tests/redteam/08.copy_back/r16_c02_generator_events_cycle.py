# expect: pass a generator of queued results, explicit Event objects, itertools.cycle over buffers
# hint: 
from itertools import cycle

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    to_device, to_host = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def copy(batch):
        with torch.cuda.stream(to_device):
            x = batch.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record(to_device)
        return x, ev

    def computed():
        """Yields each result right after its compute is queued (batch i + 1's copy is queued)."""
        nxt = copy(batches[0])
        for i in range(len(batches)):
            x, ev = nxt
            if i + 1 < len(batches):
                nxt = copy(batches[i + 1])
            ev.wait(compute_stream)
            x.record_stream(compute_stream)
            y = compute(x)
            done = torch.cuda.Event()
            done.record(compute_stream)
            yield i, y, done

    last = None
    for (i, y, done), buffer in zip(computed(), cycle(buffers)):
        if last is not None:
            j, b, back = last
            back.synchronize()  # covers copy back j, which waited for compute j only
            consume(j, b)
        to_host.wait_event(done)
        with torch.cuda.stream(to_host):
            y.record_stream(to_host)
            buffer.copy_(y, non_blocking=True)
        back = torch.cuda.Event()
        back.record(to_host)
        last = (i, buffer, back)
    j, b, back = last
    back.synchronize()
    consume(j, b)
