# expect: fail reads each micro-batch's loss on the host with .item() inside the loop (a sync per micro-batch)
# hint: item|host|read|sync|float\(|wait
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, running = [], 0.0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        running += loss.item()  # for logging
        losses.append(loss)
    torch.stack(losses).sum().backward()
    return running
