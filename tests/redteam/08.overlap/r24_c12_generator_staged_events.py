# expect: pass a generator yields each device batch once its compute stream has been told (on the GPU) to wait for it, having already queued the next copy; the function is a list comprehension over it
# hint: 
import torch


def _on_device(batches, device, compute_stream):
    side = torch.cuda.Stream(device)

    def ship(b):
        with torch.cuda.stream(side):
            t = b.to(device, non_blocking=True)
        return t, side.record_event()

    it = iter(batches)
    first = next(it, None)
    if first is None:
        return
    pending = ship(first)
    for b in it:
        t, ev = pending
        pending = ship(b)  # queued before the compute on t
        compute_stream.wait_event(ev)
        t.record_stream(compute_stream)
        yield t
    t, ev = pending
    compute_stream.wait_event(ev)
    t.record_stream(compute_stream)
    yield t


def answer(batches, compute, device):
    return [compute(t) for t in _on_device(batches, device, torch.cuda.current_stream(device))]
