# expect: pass
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = (t.to(device, non_blocking=True) for t in (X, y))
    class_weights = torch.as_tensor(CLASS_WEIGHTS, dtype=torch.float32, device=device)
    opt.zero_grad(set_to_none=False)  # zeros instead of None: the same update
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
