# expect: pass a deque of the blocks popped from the left, ceil(remaining / segments left) at a time; checkpoint wrapped once in functools.partial with its keywords from a dict
# hint: 
# name: checkpointed_forward
import collections
import functools

from torch.utils.checkpoint import checkpoint

_ckpt = functools.partial(checkpoint, **{"use_reentrant": False})


class _Run:
    __slots__ = ("blocks",)

    def __init__(self, blocks):
        self.blocks = blocks

    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def checkpointed_forward(blocks, x, segments):
    queue = collections.deque(blocks)
    left = segments
    h = x
    while queue:
        take = -(-len(queue) // left)  # ceil: 10 in 3 gives 4, then 3 and 3
        h = _ckpt(_Run([queue.popleft() for _ in range(take)]), h)
        left -= 1
    return h
