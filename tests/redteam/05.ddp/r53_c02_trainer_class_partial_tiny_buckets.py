# expect: pass Trainer class, functools.partial DataLoader, tiny DDP buckets with gradient_as_bucket_view
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data.

One process, on the GPU if there is one:

    python 05_ddp_train.py --epochs 3 --out final.pt

Exercise (chapter 5): turn it into a DDP script that torchrun runs with two
processes and that ends with the same parameters as single-process training
on the same global batch. Change only what DDP needs: the process group, the
sampler and its epoch, the per-rank batch size, the model wrapper. Keep
make_dataset, make_model and the command-line options as they are: the
checker relies on them.
"""

import argparse
import functools
import os

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
    p = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=3, help="passes over the data (default 3)")
    p.add_argument("--batch-size", type=int, default=32, help="global batch size (default 32)")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    p.add_argument("--samples", type=int, default=256, help="data set size (default 256)")
    p.add_argument("--seed", type=int, default=0, help="seeds data, model, shuffle (default 0)")
    p.add_argument("--out", default="ddp_final.pt", help="where to save the final state_dict")
    return p.parse_args(argv)


class Trainer:
    """One rank's share of the work: built once, run epoch by epoch."""

    def __init__(self, args):
        self.args = args
        local_rank = int(os.environ["LOCAL_RANK"])
        own_gpu = torch.cuda.is_available() and torch.cuda.device_count() >= int(
            os.environ["LOCAL_WORLD_SIZE"]
        )
        dist.init_process_group(backend="nccl" if own_gpu else "gloo")
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()
        if own_gpu:
            torch.cuda.set_device(local_rank)
        self.device = torch.device(f"cuda:{local_rank}") if own_gpu else torch.device("cpu")
        self.dataset = make_dataset(args.samples, args.seed)
        self.model = make_model(args.seed).to(self.device)
        self.sampler = DistributedSampler(self.dataset, shuffle=True, seed=args.seed)
        make_loader = functools.partial(DataLoader, self.dataset, sampler=self.sampler)
        self.loader = make_loader(batch_size=args.batch_size // self.world_size)
        self.net = DDP(
            self.model,
            device_ids=[local_rank] if own_gpu else None,
            bucket_cap_mb=0.001,  # tiny buckets: more, smaller all-reduces, the same bytes
            gradient_as_bucket_view=True,
        )
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)

    def epoch(self, epoch):
        self.sampler.set_epoch(epoch)
        loss = None
        for X, y in self.loader:
            self.opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(self.net(X.to(self.device)), y.to(self.device))
            loss.backward()
            self.opt.step()
        return loss

    def finish(self):
        if self.rank == 0:
            torch.save(self.model.state_dict(), self.args.out)
        dist.barrier()
        dist.destroy_process_group()


def main():
    args = parse_args()
    torch.set_num_threads(1)  # a few small processes on a few cores: one thread each
    trainer = Trainer(args)
    if trainer.rank == 0:
        print(f"{trainer.world_size} process(es), training on {trainer.device}", flush=True)
    for epoch in range(args.epochs):
        loss = trainer.epoch(epoch)
        if trainer.rank == 0:
            print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)
    trainer.finish()


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r53_c02_trainer_class_partial_tiny_buckets.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
