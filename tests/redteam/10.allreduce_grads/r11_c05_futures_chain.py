# expect: pass
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()

    def divide(fut):
        (t,) = fut.value()
        return t.div_(world)

    futures = []
    for p in model.parameters():
        if p.grad is not None:
            work = dist.all_reduce(p.grad, async_op=True)
            futures.append(work.get_future().then(divide))
    torch.futures.wait_all(futures)  # the chained futures: sum and division both done
