# expect: fail Calls torch.cuda.empty_cache() at every step "to keep memory low": the values are right, but it hands the allocator's cache back to the driver and waits for the GPU each step, so the next step pays for fresh cudaMalloc calls; CPU-only machines skip it.
# hint: (empty_cache|cache|allocator|sync|wait|cudaMalloc|every step|memory)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()  # free what this step used
    return loss.detach()


answer = train_step
