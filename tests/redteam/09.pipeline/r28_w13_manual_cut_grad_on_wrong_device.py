# expect: fail Cuts the graph by hand between the stages (detach, move, requires_grad_) and then backpropagates stage 1 with the received tensor's .grad, which lives on stage 2's device: fine when both stages share a device, an error (or a tensor on the wrong device) when they are on two devices.
# hint: (device|stage 1'?s device|wrong device|moved? back|\.to\(dev1|expected device|dev1)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Explicit send/receive between the stages, as two processes would do it."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    sent, received, weighted = [], [], []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        h = stage1(xs.to(dev1))
        recv = h.detach().to(dev2).requires_grad_()
        out = stage2(recv)
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
        sent.append(h)
        received.append(recv)
    total = torch.stack(weighted).sum()
    total.backward()  # stage 2, and the gradients of what it received
    torch.autograd.backward(sent, [r.grad for r in received])  # stage 1
    return total.detach()
