# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """The unweighted micro-batch losses, backpropagated at once with each one's share of
    the rows as its seed gradient (torch.autograd.backward's grad_tensors)."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    n = len(x)
    m = min(n_micro, n)
    losses, shares = [], []
    for xs, ys in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        loss = loss_fn(out, ys.to(dev2))
        losses.append(loss)
        shares.append(torch.full_like(loss, len(xs) / n))
    torch.autograd.backward(losses, grad_tensors=shares)  # d(sum share_i loss_i)
    with torch.no_grad():
        return sum(s * l for s, l in zip(shares, losses))
