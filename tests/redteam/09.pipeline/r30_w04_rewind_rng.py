# expect: fail saves the global RNG state at the start of the step and restores it at the end, so the stages' own draws (dropout) are undone and repeat identically every step
# hint: rng|random|generator|state|dropout|seed
# open: no case's stages draw random numbers (no dropout), so a state read at the start of the step and set back at its end changes nothing; torch.random.fork_rng() around the answer's own draws does the same and is right: only stages that draw tell a rewind of theirs apart
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    state = torch.get_rng_state()  # leave the caller's generator as I found it
    try:
        d1 = next(stage1.parameters()).device
        d2 = next(stage2.parameters()).device
        m = min(n_micro, len(x))
        n = len(x)
        losses = []
        for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
            out = stage2(stage1(xb.to(d1)).to(d2))
            losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / n))
        total = torch.stack(losses).sum()
        total.backward()
        return total.detach()
    finally:
        torch.set_rng_state(state)


answer = pipeline_step
