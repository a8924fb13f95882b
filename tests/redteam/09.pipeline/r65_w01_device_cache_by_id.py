# expect: fail finds each stage's device once and caches it by id(stage): stages moved between calls get tensors sent to their old devices
# hint: device|moved|cache|stale|second call|swap|next\(stage
# Wrong: the prompt says to find each stage's device with next(stage.parameters()).device; a
# stage moved with .to() keeps its id, so the second call (stages swapped) uses stale devices.
import torch

_devices = {}  # id(stage) -> device, "looked up once, the stages do not move"


def _device_of(stage):
    key = id(stage)
    if key not in _devices:
        _devices[key] = next(stage.parameters()).device
    return _devices[key]


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = _device_of(stage1), _device_of(stage2)
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
