# expect: fail walks model.modules() and each module's parameters(), so every gradient of a nested model is all-reduced (and divided) twice: right values, double the collectives
# hint: twice|double|more than once|duplicate|extra|collectives?|count|per gradient|modules
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for module in model.modules():  # every layer, however deeply nested
        for p in module.parameters():
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= world


answer = average_gradients
