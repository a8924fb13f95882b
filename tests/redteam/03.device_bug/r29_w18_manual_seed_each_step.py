# expect: fail Calls torch.manual_seed(0) at the start of every step "for reproducibility": this step draws no random numbers, so its values are right, but it resets the global generator, so the caller's shuffling, dropout and initialisation repeat the same numbers after every step.
# hint: (seed|manual_seed|random|rng|generator|global state|reproducib)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    torch.manual_seed(0)  # the same step on every device
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
