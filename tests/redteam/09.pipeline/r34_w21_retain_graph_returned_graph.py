# expect: fail backward of each loss with retain_graph=True ("the losses share stage graphs") and returns the total still attached to the graph: every micro-batch's activations stay alive after the step, held by the returned loss
# hint: retain_graph|graph|activations|detach|free
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    for loss in losses:
        loss.backward(retain_graph=True)
    return torch.stack(losses).sum()


answer = pipeline_step
