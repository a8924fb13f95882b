# expect: fail It fills missing gradients with zeros so every rank sends the same list, which changes p.grad from None to a tensor on unused layers, so an optimizer with momentum or weight decay updates them.
# hint: none|leave them alone|zeros|unused|skip
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)  # so that every rank sends the same tensors
        dist.all_reduce(p.grad)
        p.grad.div_(world)
