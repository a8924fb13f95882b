# expect: pass each segment is nn.Sequential over its blocks wrapped by torch.distributed's checkpoint_wrapper, whose default implementation is NO_REENTRANT (it calls torch.utils.checkpoint.checkpoint with use_reentrant=False, preserve_rng_state left at True); divmod sizes, remainder first; every segment checkpointed
# hint: 
# name: checkpointed_forward
from torch import nn
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
    CheckpointImpl,
    checkpoint_wrapper,
)


def checkpointed_forward(blocks, x, segments):
    q, r = divmod(len(blocks), segments)
    h, start = x, 0
    for i in range(segments):
        stop = start + q + (1 if i < r else 0)
        if stop > start:
            wrapped = checkpoint_wrapper(
                nn.Sequential(*blocks[start:stop]), checkpoint_impl=CheckpointImpl.NO_REENTRANT
            )
            h = wrapped(h)
        start = stop
    return h
