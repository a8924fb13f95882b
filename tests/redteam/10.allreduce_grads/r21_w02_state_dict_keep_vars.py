# expect: fail walks state_dict(keep_vars=True), which lists a tied (shared) parameter under each of its names: its gradient is all-reduced once per name, extra collectives
# hint: state_dict|tied|shared|twice|more than once|duplicate|extra collective|once per
import torch.distributed as dist
from torch import nn


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for name, t in model.state_dict(keep_vars=True).items():
        if not isinstance(t, nn.Parameter) or t.grad is None:
            continue  # buffers and unused layers
        dist.all_reduce(t.grad)
        t.grad /= world
