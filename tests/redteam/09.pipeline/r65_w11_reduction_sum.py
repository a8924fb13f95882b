# expect: pass calls loss_fn(out, target, reduction="sum") and divides by len(x): right for cross-entropy, but mse_loss sums every element (rows x columns), and a loss module takes no reduction argument: written as a wrong answer, judged right: every loss_fn the prompt passes is a mean over its rows that takes reduction, as r6_c05 uses too
# hint:
# Wrong: the prompt calls loss_fn(out, target), a mean over its rows, and asks to weight it by the
# micro-batch's share; re-reducing with reduction="sum" / len(x) only matches for 1-D losses.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2), reduction="sum") / len(x))  # no uneven weights
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
