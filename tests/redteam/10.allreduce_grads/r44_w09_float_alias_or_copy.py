# expect: fail all-reduces p.grad.float(), which is p.grad itself for a float32 gradient but a new float32 copy for any other dtype: a float32 model is averaged, a float64 (or half) model's p.grad is never written.
# hint: dtype|float\(\)|copy|float64|in place|alias
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.float()  # gloo sums float32
        dist.all_reduce(g)
        g.div_(world)
