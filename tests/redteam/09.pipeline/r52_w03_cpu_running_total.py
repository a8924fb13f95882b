# expect: fail copies each micro-batch's loss to the host (.cpu()) inside the forward loop: a host read per micro-batch, before the last forward
# hint: host|read|sync|wait|\.cpu|item
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, total = [], torch.zeros(())
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        losses.append(loss)
        total += loss.detach().cpu()  # keep the running total on the CPU, where the batch came from
    for loss in losses:
        loss.backward()
    return total


answer = pipeline_step
