# expect: fail zeroes the stages' gradients for the step and adds the saved ones back at the end: right .grad after, but zeroed during the step
# hint: zero|zero_grad|restor|saved.{0,20}grad|grad.{0,30}(during|while|clear|none)|add to|accumulat
# Wrong: the prompt says "do not zero the gradients" and to add to those in .grad; this clears
# them, and only the last lines put them back (with a clone of every gradient as extra cost).
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    params = [*stage1.parameters(), *stage2.parameters()]
    before = [None if p.grad is None else p.grad.clone() for p in params]
    stage1.zero_grad()
    stage2.zero_grad()  # a clean slate, to see this step's gradients alone
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    for p, old in zip(params, before, strict=True):
        if old is not None:
            p.grad = old if p.grad is None else p.grad + old
    return total.detach()
