# expect: fail checks on every call that the ranks agree on the parameter names with dist.all_gather_object: a pickled extra collective per step besides the all-reduces
# hint: all_gather_object|extra collective|other collective|gather|pickl|sanity|only (the )?all.?reduce
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    named = [(name, p) for name, p in model.named_parameters() if p.grad is not None]
    names = [name for name, _ in named]
    seen = [None] * dist.get_world_size()
    dist.all_gather_object(seen, names)  # every rank must send the same gradients
    assert all(s == names for s in seen), f"ranks disagree on the gradients: {seen}"
    for _, p in named:
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


answer = average_gradients
