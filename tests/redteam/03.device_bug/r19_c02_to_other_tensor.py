# expect: pass batch moved in a generator unpack, weights moved with .to(logits) (device and dtype of another tensor), zero_grad(set_to_none=False)
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = (t.to(device) for t in (X, y))
    logits = net(X)
    loss = F.cross_entropy(logits, y, weight=torch.tensor(CLASS_WEIGHTS).to(logits))
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
