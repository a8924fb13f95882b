# expect: pass as_tensor(...).to(device), non_blocking batch copies, named intermediate logits
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    inputs = X.to(device, non_blocking=True)
    targets = y.to(device, non_blocking=True)
    weights = torch.as_tensor(CLASS_WEIGHTS, dtype=torch.float32).to(device)
    logits = net(inputs)
    loss = F.cross_entropy(logits, targets, weight=weights)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
