# expect: fail It calls torch.set_num_threads(1) to stop gloo and the intra-op threads fighting for cores and never puts the old thread count back, a process-wide setting the caller did not ask to change.
# hint: thread|num_threads|process-wide|setting|put back|restore
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    torch.set_num_threads(1)  # leave the cores to gloo's threads
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)
