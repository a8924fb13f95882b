# expect: fail divides in a Future.then callback whose lambda reads the loop variable p when it runs, not when it was made: callbacks that run after the loop moved on divide the last gradient again and leave the others as sums
# hint: late.?bind|closure|loop variable|lambda|callback|then|divided (more than )?once|twice|not divided|sum(med)? (and|but) not (divided|averaged)
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    chained = []
    for p in model.parameters():
        if p.grad is None:
            continue
        work = dist.all_reduce(p.grad, async_op=True)
        chained.append(work.get_future().then(lambda fut: p.grad.div_(n)))
    torch.futures.wait_all(chained)


answer = average_gradients
