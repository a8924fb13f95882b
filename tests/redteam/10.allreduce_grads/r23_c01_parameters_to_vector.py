# expect: pass flattens each dtype's grads with torch.nn.utils.parameters_to_vector and hands the averaged vector back with vector_to_parameters (which rebinds each grad's .data to a slice of it; p.grad stays the same tensor object)
# hint: 
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    by_dtype = {}
    for p in model.parameters():
        if p.grad is not None:
            by_dtype.setdefault(p.grad.dtype, []).append(p.grad)
    for grads in by_dtype.values():  # same insertion order on every rank: the model's
        vec = parameters_to_vector(grads)  # one contiguous copy of this dtype's grads
        dist.all_reduce(vec)
        vec /= dist.get_world_size()
        vector_to_parameters(vec, grads)  # g.data = vec[slice].view_as(g), for each g
