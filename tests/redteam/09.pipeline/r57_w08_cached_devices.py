# expect: fail caches each stage's device in a module-level dict keyed by the stage, so after the stages are moved to other devices it sends the activations and targets to the old ones
# hint: device|moved|stale|cache|swap|wrong device|each other
import torch

from d2lgpu.pipeline import micro_batches

_devices = {}  # looked up once per stage: next(parameters()) is not free


def _device(stage):
    key = id(stage)
    if key not in _devices:
        _devices[key] = next(stage.parameters()).device
    return _devices[key]


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = _device(stage1), _device(stage2)
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
