# expect: fail keeps the whole MLP on every rank and computes the output alone, no all-reduce
# hint: bytes|shard|stor|all-reduce|parameters
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        self.fc1 = nn.Linear(fc1.in_features, fc1.out_features)
        self.fc2 = nn.Linear(fc2.in_features, fc2.out_features)
        self.fc1.load_state_dict(fc1.state_dict())
        self.fc2.load_state_dict(fc2.state_dict())
        self.act = act

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
