# expect: fail keeps a clone of every averaged gradient in a module-level list on each call, memory that grows with every training step.
# hint: grow|memory|leak|keep|each call|buffer
# name: average_gradients
import torch.distributed as dist

_history = []  # averaged gradients, for inspection after training


def average_gradients(model):
    world = dist.get_world_size()
    step = []
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
            step.append(p.grad.detach().clone())
    _history.append(step)


answer = average_gradients
