# expect: fail averages only the weights and biases of nn.Linear layers; other layers' gradients stay local
# hint: every (p\.)?grad|parameter|linear|layer|not averaged|module
import torch
import torch.distributed as dist
from torch import nn


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    for m in model.modules():
        if not isinstance(m, nn.Linear):
            continue
        for p in (m.weight, m.bias):
            if p is not None and p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad.div_(n)


answer = average_gradients
