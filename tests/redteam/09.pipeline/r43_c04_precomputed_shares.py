# expect: pass moves the whole batch to the devices once, computes the micro-batch sizes up front with tensor_split and builds the loss with the built-in sum, returning the detached tensor
# hint: 
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    d1 = next(iter(stage1.parameters())).device
    d2 = next(iter(stage2.parameters())).device
    count = min(int(n_micro), x.size(0))
    xs = torch.tensor_split(x.to(d1), count)
    ys = torch.tensor_split(y.to(d2), count)
    shares = [xb.size(0) / x.size(0) for xb in xs]
    loss = sum(
        loss_fn(stage2(stage1(xb).to(d2)), yb) * share
        for xb, yb, share in zip(xs, ys, shares, strict=True)
    )
    loss.backward()
    return loss.detach()
