# expect: pass batch moved to the model's own device (from its parameters); weights via logits.new_tensor, same device and dtype as the logits
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    where = next(net.parameters()).device  # the model is already on device
    logits = net(X.to(where))
    loss = F.cross_entropy(logits, y.to(where), weight=logits.new_tensor(CLASS_WEIGHTS))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
