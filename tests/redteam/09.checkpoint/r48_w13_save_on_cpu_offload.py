# expect: fail offloads the saved tensors with save_on_cpu instead of recomputing: nothing is checkpointed, backward reruns no segment
# hint: recomput|checkpoint|segment|rerun|offload|forward

import torch


def checkpointed_forward(blocks, x, segments):
    # the same memory saving without paying for a second forward: keep the activations on the host
    with torch.autograd.graph.save_on_cpu(pin_memory=torch.cuda.is_available()):
        h = x
        for block in blocks:
            h = block(h)
    return h

answer = checkpointed_forward
