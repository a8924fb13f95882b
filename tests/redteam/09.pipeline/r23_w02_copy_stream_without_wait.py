# expect: fail activations are copied to stage 2's GPU on a side stream so the copies overlap compute, but stage 2's stream never waits for that stream (no wait_stream / wait_event, no record_stream): stage 2 may read the activation before the copy lands; invisible on the CPU and on pretend GPUs
# hint: stream|wait|event|synchron|race|record_stream|order
import torch

from d2lgpu.pipeline import micro_batches

_copy_streams = {}


def _send(h, device):
    """Copy h to device on a dedicated copy stream, so it overlaps stage 1's next micro-batch."""
    if h.is_cuda and device.type == "cuda" and h.device != device:
        stream = _copy_streams.setdefault(device, torch.cuda.Stream(device))
        with torch.cuda.stream(stream):
            return h.to(device, non_blocking=True)
    return h.to(device)


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = _send(stage1(xb.to(d1)), d2)
        losses.append(loss_fn(stage2(h), yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
