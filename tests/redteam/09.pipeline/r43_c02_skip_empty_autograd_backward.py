# expect: pass splits with tensor_split(x, n_micro) and skips the empty pieces (the same min(n_micro, len(x)) micro-batches), then one torch.autograd.backward over the list of weighted losses and a tensor returned
# hint: 
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    first = next(stage1.parameters()).device
    second = next(stage2.parameters()).device
    rows = x.shape[0]
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro)):
        if xb.shape[0] == 0:  # more micro-batches asked for than rows: no empty ones
            continue
        out = stage2(stage1(xb.to(first)).to(second))
        weighted.append(loss_fn(out, yb.to(second)) * (xb.shape[0] / rows))
    torch.autograd.backward(weighted)  # all forwards done; the stages' .grad accumulate
    with torch.no_grad():
        return torch.stack(weighted).sum()
