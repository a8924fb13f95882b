# expect: fail caches each stage's device by id(stage) across calls; stale after the stages are moved
# hint: device
import torch

_DEVICES = {}  # looked up once per stage: next(parameters()) every step seemed wasteful


def _device(stage):
    if id(stage) not in _DEVICES:
        _DEVICES[id(stage)] = next(stage.parameters()).device
    return _DEVICES[id(stage)]


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1, dev2 = _device(stage1), _device(stage2)
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
