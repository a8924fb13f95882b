# expect: fail waits for the whole device after every gradient's all-reduce (torch.cuda.synchronize where a GPU exists): a blocking device-wide wait per parameter, invisible in the values and on a CPU
# hint: synchroni[sz]e|sync|extra wait|device.?wide|every (gradient|parameter)|block
# open: seen only on a GPU: on the CPU torch.cuda.is_available() is False and the synchronize is never reached
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        if p.grad.is_cuda:
            torch.cuda.synchronize(p.grad.device)  # make sure the sum has landed before dividing
        p.grad.div_(world)


answer = average_gradients
