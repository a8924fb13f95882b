# expect: fail Calls torch.manual_seed(0) at the start of every step "for reproducibility": the loss and gradients are right, but it resets the process's global random state on every call, so the caller's random stream (shuffling, dropout masks, initialisations) is overwritten and repeats from step to step.
# hint: (seed|rng|random (state|stream|number)|generator|manual_seed|reproducib)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step, seeded so that two runs give the same numbers."""
    torch.manual_seed(0)
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = min(n_micro, rows)
    weighted = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
