# expect: fail prints each micro-batch's loss while looping (a debugging print left in): a host read per micro-batch before the last forward
# hint: print|host|read
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
        print(f"micro-batch {len(losses) - 1}: loss {losses[-1]}")
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
