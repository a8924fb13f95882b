# expect: fail Backpropagates each micro-batch's loss times its row count, then divides every parameter's whole .grad by the batch size: right from zero gradients, but the gradients already in .grad before the step are divided by len(x) too.
# hint: (already in|existing|pre-?existing|accumulat|add to|before the step|divid|rescal|\.grad.*(scal|shrunk))
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Sum-style losses (mean x rows), backward once, then the gradients back to a mean."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    sums = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        sums.append(loss_fn(out, ys.to(dev2)) * len(xs))  # this micro-batch's sum
    total = torch.stack(sums).sum()
    total.backward()
    with torch.no_grad():  # from a sum over rows to a mean over rows
        for p in [*stage1.parameters(), *stage2.parameters()]:
            if p.grad is not None:
                p.grad.div_(rows)
    return total.detach() / rows
