# expect: fail weights the stacked losses with torch.tensor(shares, device=d2), whose dtype is the default float32 whatever the stages compute in: with stages in float64 (or bfloat16) the product raises (dot: expected both vectors to have the same dtype)
# hint: dtype|float32|float64|bfloat16|double|same dtype|default
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses, shares = [], []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)))
        shares.append(len(xb) / len(x))
    total = torch.stack(losses) @ torch.tensor(shares, device=d2)
    total.backward()
    return total.detach()
