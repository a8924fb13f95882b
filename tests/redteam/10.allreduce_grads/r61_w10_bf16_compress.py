# expect: fail sends the gradients as bfloat16 (like bf16_compress_hook) and copies the rounded average back, losing precision
# hint: bfloat16|bf16|precision|dtype|round|compress|half|float32|tolerance|close
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            g = p.grad.to(torch.bfloat16)  # half the bytes on the wire
            dist.all_reduce(g)
            p.grad.copy_(g.float() / world)


answer = average_gradients
