# expect: pass
# hint:
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(blocks, x, segments):
    # its own split, last segment unchecked: the prompt's one exception
    return checkpoint_sequential(blocks, segments, x, use_reentrant=False)
