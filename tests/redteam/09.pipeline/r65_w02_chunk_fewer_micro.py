# expect: fail splits with torch.chunk, which makes fewer than min(n_micro, len(x)) micro-batches for some sizes (9 rows in 4: 3; 5 in 4: 3)
# hint: chunk|number of micro.?batches|min\(n_micro|fewer|tensor_split|micro_batches|how many
# Wrong: the prompt asks for min(n_micro, len(x)) micro-batches; torch.chunk gives 4 for 50 or 10
# rows in 4, but 3 for 9 or 5 rows. The shares are right, so loss and gradients still match.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.chunk(x, m), torch.chunk(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
