# expect: fail keeps the class weights on the CPU and indexes them with the labels' CPU copy, a per-sample weighted mean computed with CPU tensors next to device ones
# hint: weight|class|cpu|device|same device|mix
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    w_cpu = torch.tensor(CLASS_WEIGHTS)
    per_sample = w_cpu[y]  # y still on the CPU here
    X, y = X.to(device), y.to(device)
    losses = F.cross_entropy(net(X), y, reduction="none")
    loss = (losses * per_sample).sum() / per_sample.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
