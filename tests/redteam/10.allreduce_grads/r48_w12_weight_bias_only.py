# expect: fail walks the modules and averages only attributes named weight and bias: parameters under other names (a bare nn.Parameter, MultiheadAttention's in_proj_weight, ...) keep their local gradient
# hint: every|all param|missed|not averaged|parameters\(\)|name
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Average the weight and bias gradients of every layer."""
    world = dist.get_world_size()
    for module in model.modules():
        for name in ("weight", "bias"):
            p = getattr(module, name, None)
            if isinstance(p, torch.nn.Parameter) and p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= world


answer = average_gradients
