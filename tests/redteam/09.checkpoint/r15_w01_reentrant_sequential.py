# expect: fail checkpoint_sequential with use_reentrant=True: no gradient for blocks before the last segment when the input needs none
# hint: reentrant|use_reentrant|no grad|gradient.*(none|missing|zero)|requires_grad
import torch
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    # checkpoint_sequential does the splitting and leaves the last segment unchecked
    return checkpoint_sequential(blocks, segments, x, use_reentrant=True)


answer = checkpointed_forward
