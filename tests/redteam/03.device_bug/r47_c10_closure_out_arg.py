# expect: pass closure factory over the weights list; weights written with out= into a tensor allocated on device
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def make_train_step(weights):
    def step(net, X, y, opt, device):
        w = torch.empty(len(weights), dtype=torch.float32, device=device)
        torch.mul(torch.as_tensor(weights, dtype=torch.float32, device=device), 1.0, out=w)
        batch = [t.to(device) for t in (X, y)]
        loss = F.cross_entropy(net(batch[0]), batch[1], weight=w)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    return step


answer = make_train_step(CLASS_WEIGHTS)
