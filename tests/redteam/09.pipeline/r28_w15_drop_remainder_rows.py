# expect: fail Makes equal micro-batches by dropping the last len(x) % n_micro rows (like drop_last): right on batches that divide evenly, but on the others the loss and the gradients leave those rows out.
# hint: (drop|remainder|left out|leaves? out|missing rows?|rows? (missing|ignored|skipped)|uneven|not divide|every row|whole batch)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Equal micro-batches of len(x) // count rows each."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    count = min(n_micro, len(x))
    size = len(x) // count
    kept = size * count  # equal pieces: the few leftover rows wait for the next batch
    weighted = []
    for xs, ys in zip(x[:kept].split(size), y[:kept].split(size)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / kept))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
