# expect: pass torch's own checkpoint_sequential, non-reentrant (its split: last segment unchecked, takes the remainder)
# hint:
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)


answer = checkpointed_forward
