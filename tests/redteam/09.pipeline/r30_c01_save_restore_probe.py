# expect: pass
# hint:
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    m = min(n_micro, len(x))
    # a reproducible sanity check of the split on a seeded random probe, without
    # disturbing the caller's generator: save its state, reseed, draw, restore
    state = torch.get_rng_state()
    torch.manual_seed(0)
    probe = torch.rand(len(x))
    torch.set_rng_state(state)
    assert torch.equal(torch.cat(torch.tensor_split(probe, m)), probe)
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    n = len(x)
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / n))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
