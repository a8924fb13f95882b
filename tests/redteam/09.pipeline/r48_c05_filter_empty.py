# expect: pass tensor_split into n_micro pieces with the empty ones dropped, whole batch moved up front
# hint:
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    xs = [xb for xb in torch.tensor_split(x.to(dev1), n_micro) if xb.shape[0] > 0]
    ys = [yb for yb in torch.tensor_split(y.to(dev2), n_micro) if yb.shape[0] > 0]
    total = None
    for xb, yb in zip(xs, ys, strict=True):
        part = loss_fn(stage2(stage1(xb).to(dev2)), yb) * (yb.shape[0] / y.shape[0])
        total = part if total is None else total + part
    total.backward()
    return total.detach()


answer = pipeline_step
