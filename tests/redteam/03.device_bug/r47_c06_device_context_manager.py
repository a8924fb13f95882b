# expect: pass weights made inside `with torch.device(device):` (restored on exit); batch moved with map and non_blocking
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    with torch.device(device):  # factory calls in this block make tensors on device
        class_weights = torch.tensor(CLASS_WEIGHTS)
    X, y = map(lambda t: t.to(device, non_blocking=True), (X, y))
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
