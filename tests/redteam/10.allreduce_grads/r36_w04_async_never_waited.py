# expect: fail async all-reduces whose handles are never waited on; divides while they may still run
# hint: (wait|async|handle|race|finish|complet)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, async_op=True)  # don't block, it's faster
            p.grad.div_(world)
