# expect: pass generator of copied batches, device tensors made with empty_like and copy_, and the copy back of result i queued before the host consumes result i - 1
# hint:
# name: run_copy_back
import torch


def _arrivals(batches, device, copy_stream):
    """Yield (device tensor, event) for each batch, the next copy queued before this one is used."""
    def queue(batch):
        with torch.cuda.stream(copy_stream):
            x = torch.empty_like(batch, device=device)
            x.copy_(batch, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = queue(batches[0])
    for nxt in batches[1:]:
        here, ahead = ahead, queue(nxt)
        yield here
    yield ahead


def run_copy_back(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    h2d, d2h = torch.cuda.Stream(device), torch.cuda.Stream(device)
    previous = None
    for i, (x, arrived) in enumerate(_arrivals(batches, device, h2d)):
        main.wait_event(arrived)
        x.record_stream(main)
        y = compute(x)
        d2h.wait_event(main.record_event())
        y.record_stream(d2h)
        out = buffers[i % 2]  # its last user, result i - 2, was consumed in the last step
        with torch.cuda.stream(d2h):
            out.copy_(y, non_blocking=True)
        done = d2h.record_event()
        if previous is not None:
            j, held, ev = previous
            ev.synchronize()  # covers copy back j only: compute i stays queued
            consume(j, held)
        previous = (i, out, done)
    j, held, ev = previous
    ev.synchronize()
    consume(j, held)
