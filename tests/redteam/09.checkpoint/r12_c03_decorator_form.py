# expect: pass
# hint:
# name: checkpointed_forward
import torch
import torch.utils.checkpoint as ckpt


def _segment(modules):
    @ckpt.checkpoint(use_reentrant=False)
    def run(h):
        for module in modules:
            h = module(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    index = torch.arange(len(blocks))
    runs = [_segment([blocks[int(i)] for i in part]) for part in index.tensor_split(segments)]
    h = x
    for run in runs:
        h = run(h)
    return h
