# expect: pass the graph cut at the device boundary (detach + requires_grad), stage 2 backward first, then stage 1 backward with the activations' gradient sent back
# hint:
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    saved = []  # (stage-1 output, stage-2 input, weighted loss) per micro-batch
    for xb, yb in zip(xs, ys):
        h1 = stage1(xb.to(d1))
        h2 = h1.detach().to(d2).requires_grad_()
        loss = loss_fn(stage2(h2), yb.to(d2)) * (xb.shape[0] / x.shape[0])
        saved.append((h1, h2, loss))
    # every forward has run: now the backwards, stage 2 then stage 1 for each micro-batch
    for h1, h2, loss in saved:
        loss.backward()
        h1.backward(h2.grad.to(d1))
    return torch.stack([loss.detach() for _, _, loss in saved]).sum()


answer = pipeline_step
