# expect: pass the cut as a module: nn.Sequential(stage1, ToDevice(d2), stage2) built per call (it holds the caller's stages, copies nothing), each micro-batch through it in turn; weights from numel ratios; one backward of the sum
# hint: 
import torch
from torch import nn


class ToDevice(nn.Module):
    """Moves its input to a device; autograd carries the gradient back."""

    def __init__(self, device):
        super().__init__()
        self.device = device

    def forward(self, h):
        return h.to(self.device)


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    piped = nn.Sequential(stage1, ToDevice(d2), stage2)
    m = min(n_micro, len(x))
    total = None
    for xb, yb in zip(x.tensor_split(m), y.tensor_split(m)):
        term = loss_fn(piped(xb.to(d1)), yb.to(d2)) * (xb.numel() / x.numel())
        total = term if total is None else total + term
    total.backward()
    return total.detach()
