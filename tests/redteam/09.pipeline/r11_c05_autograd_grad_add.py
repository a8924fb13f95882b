# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """torch.autograd.grad after every forward, then each gradient added into .grad by hand."""
    dev_a = next(stage1.parameters()).device
    dev_b = next(stage2.parameters()).device
    k = min(n_micro, len(x))
    total = None
    for xb, yb in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)):
        z = stage2(stage1(xb.to(dev_a)).to(dev_b))
        term = loss_fn(z, yb.to(dev_b)) * (len(xb) / len(x))
        total = term if total is None else total + term
    params = [p for stage in (stage1, stage2) for p in stage.parameters() if p.requires_grad]
    grads = torch.autograd.grad(total, params)
    with torch.no_grad():
        for p, g in zip(params, grads):
            if p.grad is None:
                p.grad = g.clone()
            else:
                p.grad.add_(g)
    return total.detach()
