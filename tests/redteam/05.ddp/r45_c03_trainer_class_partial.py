# expect: pass a Trainer class, functools.partial DataLoader factory
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""DDP training of a small classifier, organised as a Trainer class."""

import argparse
import functools
import os

import torch
import torch.distributed as dist
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
    p = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=3, help="passes over the data (default 3)")
    p.add_argument("--batch-size", type=int, default=32, help="global batch size (default 32)")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    p.add_argument("--samples", type=int, default=256, help="data set size (default 256)")
    p.add_argument("--seed", type=int, default=0, help="seeds data, model, shuffle (default 0)")
    p.add_argument("--out", default="ddp_final.pt", help="where to save the final state_dict")
    return p.parse_args(argv)


class Trainer:
    def __init__(self, args):
        self.args = args
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        wanted = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
        self.nccl = torch.cuda.is_available() and torch.cuda.device_count() >= wanted
        if self.nccl:
            torch.cuda.set_device(self.local_rank)
        self.device = torch.device("cuda", self.local_rank) if self.nccl else torch.device("cpu")
        dist.init_process_group(backend="nccl" if self.nccl else "gloo")
        self.rank = dist.get_rank()
        self.world_size = dist.get_world_size()
        dataset = make_dataset(args.samples, args.seed)
        self.sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
        make_loader = functools.partial(DataLoader, batch_size=args.batch_size // self.world_size)
        self.loader = make_loader(dataset, sampler=self.sampler)
        self.model = make_model(args.seed).to(self.device)
        self.net = DDP(self.model, device_ids=[self.local_rank] if self.nccl else None)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)
        self.loss_fn = nn.functional.cross_entropy

    def epoch(self, epoch):
        self.sampler.set_epoch(epoch)
        last = None
        for X, y in self.loader:
            X, y = X.to(self.device), y.to(self.device)
            loss = self.loss_fn(self.net(X), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            last = loss.detach()
        return last

    def run(self):
        if self.rank == 0:
            print(f"{self.world_size} process(es), training on {self.device}", flush=True)
        for e in range(self.args.epochs):
            last = self.epoch(e)
            if self.rank == 0:
                print(f"epoch {e + 1}: last batch loss {last.item():.4f}", flush=True)
        if self.rank == 0:
            torch.save(self.model.state_dict(), self.args.out)
        dist.barrier()
        dist.destroy_process_group()


def main():
    args = parse_args()
    torch.set_num_threads(1)
    Trainer(args).run()


if __name__ == "__main__":
    main()
'''

_folder = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp"
_folder.mkdir(parents=True, exist_ok=True)
_path = _folder / "r45_c03_trainer_class_partial.py"
_path.write_text(SCRIPT)
answer = str(_path)
