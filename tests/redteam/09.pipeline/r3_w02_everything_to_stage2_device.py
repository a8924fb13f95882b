# expect: fail the inputs sent to stage 2's device ("where the loss is")
# hint: stage 1's input was on stage 2's device
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    dev = next(stage2.parameters()).device
    x, y = x.to(dev), y.to(dev)
    k = min(n_micro, len(x))
    losses = [loss_fn(stage2(stage1(a)), b) * (len(a) / len(x))
              for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k))]
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
