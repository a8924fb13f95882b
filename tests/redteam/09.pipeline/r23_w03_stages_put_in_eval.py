# expect: fail the step switches both stages to eval() so the micro-batched loss matches the unsplit one, which turns dropout off (and freezes batch-norm statistics) in a training step, and leaves the caller's modules in eval mode
# hint: eval|train|mode|dropout|batch.?norm
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    # deterministic stages: the split step then gives exactly the unsplit model's numbers
    stage1.eval()
    stage2.eval()
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = stage1(xb.to(d1)).to(d2)
        losses.append(loss_fn(stage2(h), yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
