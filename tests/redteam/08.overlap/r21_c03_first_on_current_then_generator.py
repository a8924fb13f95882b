# expect: pass batch 0 copied on the current stream (allowed), the rest produced by a generator on the side stream, consumed one ahead with next()
# hint: 
import torch


def _copies(batches, stream, device):
    """Yield (device tensor, event) for each batch, each copy queued on `stream`."""
    for b in batches:
        with torch.cuda.stream(stream):
            x = b.to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(stream)
        yield x, ev


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    here = torch.cuda.current_stream(device)
    first = batches[0].to(device, non_blocking=True)  # on the compute stream: ordered already
    rest = _copies(batches[1:], torch.cuda.Stream(device), device)
    pending = next(rest, None)  # batch 1's copy, queued before compute 0
    results = [compute(first)]
    while pending is not None:
        x, ev = pending
        pending = next(rest, None)  # the following copy, queued before this compute
        here.wait_event(ev)
        x.record_stream(here)
        results.append(compute(x))
    return results
