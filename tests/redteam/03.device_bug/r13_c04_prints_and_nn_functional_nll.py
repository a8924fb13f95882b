# expect: pass log_softmax + nll_loss (same weighted loss), zero_grad(set_to_none=False), prints devices (no sync)
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    device = torch.device(device)
    X, y = [t.to(device=device) for t in (X, y)]
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device, dtype=torch.float32)
    print(f"step on {device}: X on {X.device}, y on {y.device}, weights on {class_weights.device}")
    log_probs = F.log_softmax(net(X), dim=1)
    loss = F.nll_loss(log_probs, y, weight=class_weights)  # = weighted cross_entropy
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
