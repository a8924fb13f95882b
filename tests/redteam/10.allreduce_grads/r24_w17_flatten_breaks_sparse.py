# expect: fail flattens every gradient with reshape(-1) into one buffer, which raises for a sparse gradient (nn.Embedding(sparse=True)), although dist.all_reduce on the gradient itself handles it
# hint: sparse|embedding|layout|reshape|flat
# open: no case's model has a sparse gradient (nn.Embedding(sparse=True)); the prompt's models are dense
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    flat.div_(dist.get_world_size())
    dist.all_reduce(flat)
    for g, chunk in zip(grads, flat.split([g.numel() for g in grads])):
        g.copy_(chunk.view_as(g))


answer = average_gradients
