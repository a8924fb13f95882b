# expect: fail the whole stack as one checkpointed segment
# hint: whole|one segment|single|segment|entire
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def _all(blocks):
    def run(h):
        for b in blocks:
            h = b(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    return checkpoint(_all(list(blocks)), x, use_reentrant=False)
