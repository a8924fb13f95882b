# expect: fail (r11_w04 with from torch.distributed import ...) keeps the async work handles but writes `h.wait` without parentheses, so nothing is waited on before dividing
# hint: wait\(\)|wait.*(call|parenthes|never|not)|(not|never).*wait|async|handle|race
# name: average_gradients
from torch.distributed import all_reduce, get_world_size


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [all_reduce(g, async_op=True) for g in grads]
    for h in handles:
        h.wait
    world = get_world_size()
    for g in grads:
        g.div_(world)
