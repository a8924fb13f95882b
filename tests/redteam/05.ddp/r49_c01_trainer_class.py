# expect: pass a dataclass Trainer; int(b / w) for the per-rank batch; zero_grad(set_to_none) after step; saves net.module.state_dict()
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data, with DDP under torchrun."""

import argparse
import os
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def make_dataset(samples, seed):
    """A learnable 4-class problem, identical on every rank (made from a seeded generator)."""
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(samples, 20, generator=gen)
    teacher = torch.randn(20, 4, generator=gen)
    return TensorDataset(X, (X @ teacher).argmax(dim=1))


def make_model(seed):
    """A small MLP, with the same initial weights wherever it is built with the same seed."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Train a small classifier on synthetic data.")
    p.add_argument("--epochs", type=int, default=3, help="passes over the data (default 3)")
    p.add_argument("--batch-size", type=int, default=32, help="global batch size (default 32)")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    p.add_argument("--samples", type=int, default=256, help="data set size (default 256)")
    p.add_argument("--seed", type=int, default=0, help="seeds data, model, shuffle (default 0)")
    p.add_argument("--out", default="ddp_final.pt", help="where to save the final state_dict")
    return p.parse_args(argv)


def pick_backend():
    """nccl only when every process on this machine has a GPU of its own."""
    per_node = int(os.environ["LOCAL_WORLD_SIZE"])
    return "nccl" if 0 < per_node <= torch.cuda.device_count() else "gloo"


@dataclass
class Trainer:
    args: argparse.Namespace
    rank: int = field(init=False)
    world_size: int = field(init=False)

    def __post_init__(self):
        self.backend = pick_backend()
        dist.init_process_group(backend=self.backend)
        self.rank = dist.get_rank()
        self.world_size = dist.get_world_size()
        if self.backend == "nccl":
            self.local_rank = int(os.environ["LOCAL_RANK"])
            self.device = torch.device(f"cuda:{self.local_rank}")
            torch.cuda.set_device(self.device)
        else:
            self.local_rank = None
            self.device = torch.device("cpu")

    def build(self):
        a = self.args
        self.dataset = make_dataset(a.samples, a.seed)
        self.model = make_model(a.seed).to(self.device)
        self.sampler = DistributedSampler(self.dataset, shuffle=True, seed=a.seed)
        per_rank = int(a.batch_size / self.world_size)  # the same as // for positive sizes
        self.loader = DataLoader(self.dataset, batch_size=per_rank, sampler=self.sampler)
        ids = None if self.local_rank is None else [self.local_rank]
        self.net = DDP(self.model, device_ids=ids, output_device=None if ids is None else ids[0])
        self.opt = torch.optim.SGD(self.net.module.parameters(), lr=a.lr)
        return self

    def epoch(self, number):
        self.sampler.set_epoch(number)
        loss = None
        for X, y in self.loader:
            X = X.to(self.device, non_blocking=True)
            y = y.to(self.device, non_blocking=True)
            loss = F.cross_entropy(self.net(X), y)
            loss.backward()
            self.opt.step()
            self.opt.zero_grad(set_to_none=True)
        return loss

    def fit(self):
        for number in range(self.args.epochs):
            loss = self.epoch(number)
            if self.rank == 0:
                print(f"epoch {number + 1}: last batch loss {loss.item():.4f}", flush=True)

    def finish(self):
        if self.rank == 0:
            torch.save(self.net.module.state_dict(), self.args.out)
        dist.barrier()
        dist.destroy_process_group()


def main():
    args = parse_args()
    torch.set_num_threads(1)
    trainer = Trainer(args)
    if trainer.rank == 0:
        print(f"{trainer.world_size} process(es), training on {trainer.device}", flush=True)
    trainer.build().fit()
    trainer.finish()


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r49_c01_trainer_class.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
