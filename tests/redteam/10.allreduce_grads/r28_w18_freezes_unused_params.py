# expect: fail sets requires_grad=False on every parameter that has no gradient, so that autograd stops tracking unused layers: a layer that forward uses in a later step (the third) then never gets a gradient or an update, and the function has changed the model.
# hint: (requires_grad|freez|frozen|modif|chang.*model|side effect|later step|every call|never gets|outside)
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            if p.requires_grad:
                p.requires_grad_(False)  # unused layer: let autograd skip it from now on
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
