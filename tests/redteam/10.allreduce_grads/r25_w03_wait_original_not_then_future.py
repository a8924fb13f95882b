# expect: fail divides in a .then() callback but waits on the all-reduce's own future, not on the future that then() returns, so the division can still be running (or not yet started) when the function returns
# hint: then\(|callback|chain|(division|divide|div_).{0,60}(after|race|may not|not (yet )?(run|done|finish))|race
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    futures = []
    for p in model.parameters():
        if p.grad is None:
            continue
        fut = dist.all_reduce(p.grad, async_op=True).get_future()
        fut.then(lambda f, g=p.grad: g.div_(world))  # divide once the sum is in
        futures.append(fut)
    torch.futures.wait_all(futures)
