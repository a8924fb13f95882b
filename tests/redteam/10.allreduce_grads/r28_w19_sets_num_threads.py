# expect: fail calls torch.set_num_threads(1) inside the function, so that gloo's threads do not compete with the math: that changes the whole process's intra-op threads for the rest of training (forward and backward run single-threaded), work outside what the function is asked to do.
# hint: (set_num_threads|thread|global|process-wide|side effect|outside|changes? the process)
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    torch.set_num_threads(1)  # the chapter: gloo's threads share the cores with the compute
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for h, g in zip(handles, grads):
        h.wait()
        g.div_(world)
