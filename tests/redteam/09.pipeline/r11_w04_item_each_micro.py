# expect: fail reads each micro-batch's loss on the host with .item() inside the forward loop (one host read per micro-batch, before the last forward)
# hint: host|\.item|item\(\)|float\(|sync|device value|\bread|more than once|at most once|wait
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, total = [], 0.0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        losses.append(loss)
        total += loss.item()  # running loss, as a float
    torch.stack(losses).sum().backward()
    return total
