# expect: fail reports the loss from an extra unsplit forward of the whole batch (under no_grad): every row goes through both stages twice
# hint: whole batch|unsplit|extra forward|recomput|twice|again|no_grad|micro.?batch|one call
# Wrong: the prompt sends each micro-batch through the stages; this adds a whole-batch call of
# each stage just to get the returned loss, a forward's worth of extra work per step.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    torch.stack(parts).sum().backward()
    with torch.no_grad():  # the batch's loss, "exactly as the unsplit model reports it"
        return loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2))
