# expect: fail registers each segment's nn.Sequential into the caller's ModuleList with add_module: the blocks come back with extra entries, so len(blocks) grows and iterating them afterwards runs every block twice
# hint: add_module|regist|ModuleList|len\(blocks\)|changes? the blocks|modif|mutat|extra (entries|modules)|twice
# name: checkpointed_forward
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(n), segments)):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        segment = nn.Sequential(*blocks[start:stop])
        blocks.add_module(f"segment{k}", segment)  # registered, so its parameters are tracked
        h = checkpoint(segment, h, use_reentrant=False)
    return h
