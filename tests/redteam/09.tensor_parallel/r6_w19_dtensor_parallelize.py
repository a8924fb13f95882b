# expect: fail PyTorch's parallelize_module (ColwiseParallel/RowwiseParallel) instead of the shards and all-reduces by hand
# hint: dist\.all_reduce|by hand|DTensor|parallelize
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F
import copy

from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        mesh = init_device_mesh("cpu", (world,))
        self.mlp = parallelize_module(
            copy.deepcopy(mlp), mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()}
        )

    def forward(self, x):
        return self.mlp(x)
