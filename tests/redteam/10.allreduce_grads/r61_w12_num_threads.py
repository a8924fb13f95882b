# expect: fail calls torch.set_num_threads(1) so gloo's threads get the cores, and leaves the process-wide thread count changed
# hint: thread|num_threads|set_num_threads|process.?wide|setting|changed|restore|put back
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    torch.set_num_threads(1)  # leave the cores to gloo's communication threads
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
