# expect: fail graph cut by hand at the stage boundary, and the gradient sent back to stage 1 is multiplied by the micro-batch's weight again: stage 1's gradients are weighted twice
# hint: twice|weight|stage 1|stage1|gradient sent|cut|double
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    sent, received, weights, losses = [], [], [], []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        a = stage1(xb.to(d1))
        h = a.detach().to(d2).requires_grad_()  # as a real pipeline receives it
        w = len(xb) / len(x)
        losses.append(loss_fn(stage2(h), yb.to(d2)) * w)
        sent.append(a), received.append(h), weights.append(w)
    total = torch.stack(losses).sum()
    total.backward()  # stage 2's gradients, and each h.grad
    grads = [(h.grad * w).to(d1) for h, w in zip(received, weights)]  # each micro-batch's share
    torch.autograd.backward(sent, grads)
    return total.detach()
