# expect: fail reseeds the global RNG (torch.manual_seed) inside the step: changes the caller's random stream
# hint: seed|random|rng|generator|fork_rng
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    torch.manual_seed(0)  # dropout in the stages: the same masks on every run
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
