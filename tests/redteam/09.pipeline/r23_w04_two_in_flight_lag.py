# expect: fail the skewed loop keeps two micro-batches in flight (stage 2 lags stage 1 by two), so with one or two micro-batches stage 2 starts only after stage 1 has run the last one: no overlap at all for small n_micro
# hint: stage 2|before|last|start|overlap|lag|skew|in flight|wait|two
import torch

from d2lgpu.pipeline import micro_batches

LAG = 2  # micro-batches stage 1 runs ahead of stage 2: a little slack for the copies


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m = len(xs)
    sent, losses = {}, []
    for t in range(m + LAG):
        if t < m:  # stage 1 on micro-batch t
            sent[t] = stage1(xs[t].to(d1)).to(d2)
        j = t - LAG
        if j >= 0:  # stage 2 on micro-batch t - LAG
            out = stage2(sent.pop(j))
            losses.append(loss_fn(out, ys[j].to(d2)) * (len(xs[j]) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
