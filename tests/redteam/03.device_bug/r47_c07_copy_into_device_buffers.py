# expect: pass copy_ into tensors allocated on device (batch and weights), non_blocking copies
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def _on(device, t):
    dst = torch.empty(t.shape, dtype=t.dtype, device=device)
    dst.copy_(t, non_blocking=True)  # host -> device into the new buffer
    return dst


def train_step(net, X, y, opt, device):
    class_weights = _on(device, torch.tensor(CLASS_WEIGHTS))
    X_d, y_d = _on(device, X), _on(device, y)
    loss = F.cross_entropy(net(X_d), y_d, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
