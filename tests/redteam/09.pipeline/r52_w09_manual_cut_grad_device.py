# expect: fail graph cut by hand, but stage 2's input gradient is handed to stage 1's backward on stage 2's device (fails when the devices differ)
# hint: device
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    saved = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        h2 = h.detach().to(dev2).requires_grad_()  # what stage 2 receives
        loss = loss_fn(stage2(h2), yb.to(dev2)) * (len(xb) / len(x))
        saved.append((h, h2, loss))
    total = 0
    for h, h2, loss in saved:
        loss.backward()
        h.backward(h2.grad)  # the gradient stage 2 sends back
        total = total + loss.detach()
    return total


answer = pipeline_step
