# expect: fail keeps the micro-batches' losses for logging with .tolist() after the backward, then returns total.item(): two host reads in one step (the prompt allows one), both at the end
# hint: tolist|two|twice|read|host|once|item|log
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
    total = sum(s * l for s, l in zip(shares, losses))
    total.backward()
    # all the reads at the end, after the last forward: the pipeline is not held up
    answer.micro_batch_losses = torch.stack(losses).detach().tolist()
    return total.item()
