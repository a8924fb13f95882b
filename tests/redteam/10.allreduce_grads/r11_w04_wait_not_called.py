# expect: fail keeps the async work handles but writes `h.wait` without parentheses, so nothing is waited on before dividing
# hint: wait\(\)|wait.*(call|parenthes|never|not)|(not|never).*wait|async|handle|race
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for h in handles:
        h.wait
    world = dist.get_world_size()
    for g in grads:
        g.div_(world)
