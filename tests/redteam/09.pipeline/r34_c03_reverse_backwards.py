# expect: pass generator-built forwards, then one backward per micro-batch in reverse order after all forwards, loss summed on device with torch.add
# hint:
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(iter(stage1.parameters())).device
    d2 = next(iter(stage2.parameters())).device
    parts = min(n_micro, x.shape[0])
    pieces = list(zip(x.tensor_split(parts), y.tensor_split(parts)))
    scaled = [
        loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)).mul(xb.shape[0] / x.shape[0])
        for xb, yb in pieces
    ]
    for loss in reversed(scaled):  # every forward is done: GPipe's backwards
        loss.backward()
    total = torch.zeros((), device=d2)
    for loss in scaled:
        total = torch.add(total, loss.detach())
    return total


answer = pipeline_step
