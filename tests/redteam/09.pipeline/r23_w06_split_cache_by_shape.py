# expect: fail the micro-batches are cached in a module-level dict keyed by the batch's shape and n_micro, so a second call with a new batch of the same shape trains on the first call's data (stale micro-batches from an earlier call)
# hint: cache|global|stale|previous|earlier call|between calls|same shape|reuse|memo
import torch

_splits = {}  # (shape, n_micro) -> (x micro-batches, y micro-batches): splitting once is enough


def _micro(x, y, n_micro):
    key = (tuple(x.shape), tuple(y.shape), n_micro)
    if key not in _splits:
        m = min(n_micro, len(x))
        _splits[key] = (torch.tensor_split(x, m), torch.tensor_split(y, m))
    return _splits[key]


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = _micro(x, y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
