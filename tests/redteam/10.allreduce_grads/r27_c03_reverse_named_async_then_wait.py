# expect: pass walks named_parameters() in reverse (the same order on every rank), launches every all-reduce with async_op=True, then in a second loop waits on each handle before dividing its gradient
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    launched = []
    for _name, param in reversed(list(model.named_parameters())):
        grad = param.grad
        if grad is None:  # unused layer: nothing to send, nothing to change
            continue
        launched.append((grad, dist.all_reduce(grad, async_op=True)))
    scale = dist.get_world_size()
    with torch.no_grad():
        for grad, work in launched:
            work.wait()
            torch.div(grad, scale, out=grad)
