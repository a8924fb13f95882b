# expect: fail Marks each micro-batch's input requires_grad_() "so the graph spans both devices": values are right, but backward then also computes the gradient of every input micro-batch (one more product per micro-batch in stage 1's first layer, and a .grad kept per micro-batch), work the step does not need.
# hint: (requires_grad|input'?s? gradient|gradient of (the )?(input|x|batch)|x\.grad|extra (work|product|gradient))
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step; inputs marked as needing gradients so autograd tracks the whole path."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    weighted = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        xs = xs.to(dev1).requires_grad_()
        out = stage2(stage1(xs).to(dev2))
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
