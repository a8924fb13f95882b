# expect: pass checkpoint_sequential over the list of blocks, its own split (last segment unchecked)
# hint:
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)


answer = checkpointed_forward
