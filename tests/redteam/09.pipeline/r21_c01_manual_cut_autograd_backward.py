# expect: pass graph cut by hand at the boundary (detach().requires_grad_()), stage 2's backward of the summed loss, then stage 1's with torch.autograd.backward of the received gradients
# hint: 
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    acts, recv, losses = [], [], []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        a = stage1(xb.to(d1))
        h = a.detach().to(d2).requires_grad_()
        losses.append(loss_fn(stage2(h), yb.to(d2)) * (xb.shape[0] / x.shape[0]))
        acts.append(a)
        recv.append(h)
    total = torch.stack(losses).sum()
    total.backward()  # after every forward: stage 2, and the gradient at each cut
    torch.autograd.backward(acts, [h.grad.to(d1) for h in recv])
    return total.detach()
