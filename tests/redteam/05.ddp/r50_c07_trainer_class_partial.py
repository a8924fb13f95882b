# expect: pass a trainer class with functools.partial for DataLoader and DDP, explicit num_replicas/rank, init_method env://
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data, with DDP.

    torchrun --standalone --nproc-per-node=2 05_ddp_train.py --epochs 3 --out final.pt
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


class DDPTrainer:
    """Everything one rank needs, set up once; run() trains, finish() saves and leaves."""

    def __init__(self, args):
        self.args = args
        self.local_rank = int(os.environ["LOCAL_RANK"])
        per_node = int(os.environ["LOCAL_WORLD_SIZE"])
        self.nccl = torch.cuda.is_available() and torch.cuda.device_count() >= per_node
        if self.nccl:
            self.device = torch.device(f"cuda:{self.local_rank}")
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")  # gloo: every rank on the CPU
        dist.init_process_group(backend="nccl" if self.nccl else "gloo", init_method="env://")
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()
        self.dataset = make_dataset(args.samples, args.seed)
        self.model = make_model(args.seed).to(self.device)
        self.sampler = DistributedSampler(
            self.dataset,
            num_replicas=self.world_size,
            rank=self.rank,
            shuffle=True,
            seed=args.seed,
        )
        make_loader = functools.partial(DataLoader, self.dataset, sampler=self.sampler)
        self.loader = make_loader(batch_size=args.batch_size // self.world_size)
        wrap = functools.partial(DDP, device_ids=[self.local_rank] if self.nccl else None)
        self.net = wrap(self.model)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)

    def say(self, text):
        if self.rank == 0:
            print(text, flush=True)

    def step(self, X, y):
        loss = F.cross_entropy(self.net(X.to(self.device)), y.to(self.device))
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        return loss

    def run(self):
        self.say(f"{self.world_size} process(es), training on {self.device}")
        for epoch in range(self.args.epochs):
            self.sampler.set_epoch(epoch)
            losses = [self.step(X, y) for X, y in self.loader]
            self.say(f"epoch {epoch + 1}: last batch loss {losses[-1].item():.4f}")

    def finish(self):
        try:
            if self.rank == 0:
                torch.save(self.model.state_dict(), self.args.out)
            dist.barrier()
        finally:
            dist.destroy_process_group()


def main():
    args = parse_args()
    torch.set_num_threads(1)  # a few small processes on a few cores: one thread each
    trainer = DDPTrainer(args)
    trainer.run()
    trainer.finish()


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r50_c07_trainer_class_partial.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
