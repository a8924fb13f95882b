# expect: fail brings each micro-batch's output back to the CPU to compute the loss there (targets stay on the CPU): loss_fn not on stage 2's device, and a device-to-host copy per micro-batch
# hint: stage 2.{0,30}device|cpu|host|target
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out.cpu(), yb) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
