# expect: pass a class whose __call__(epoch) sets the sampler's epoch and runs one epoch; backend from LOCAL_WORLD_SIZE against the GPU count; init_method env://
# hint:
"""Train a small classifier on synthetic data, with DistributedDataParallel.

Launch with torchrun, one process per GPU (or CPU processes under gloo):

    torchrun --standalone --nproc-per-node=2 05_ddp_train.py --epochs 3 --out final.pt
"""

import argparse
import os
from pathlib import Path

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


class EpochRunner:
    """One call runs one epoch of DDP training; holds the sampler, loader, wrapper, optimizer."""

    def __init__(self, args, device, device_ids, world_size):
        self.device = device
        dataset = make_dataset(args.samples, args.seed)
        self.model = make_model(args.seed).to(device)
        self.sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
        self.loader = DataLoader(
            dataset, batch_size=args.batch_size // world_size, sampler=self.sampler
        )
        self.net = DDP(self.model, device_ids=device_ids)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)

    def __call__(self, epoch):
        self.sampler.set_epoch(epoch)
        loss = None
        for X, y in self.loader:
            X, y = X.to(self.device), y.to(self.device)
            loss = F.cross_entropy(self.net(X), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss


def main():
    args = parse_args()
    torch.set_num_threads(1)
    local_rank = int(os.environ["LOCAL_RANK"])
    nproc_here = int(os.environ["LOCAL_WORLD_SIZE"])
    gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if gpus >= nproc_here:
        backend, device, device_ids = "nccl", torch.device(f"cuda:{local_rank}"), [local_rank]
        torch.cuda.set_device(device)
    else:
        backend, device, device_ids = "gloo", torch.device("cpu"), None
    dist.init_process_group(backend=backend, init_method="env://")
    rank, world_size = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        print(f"{world_size} process(es), training on {device}", flush=True)

    run_epoch = EpochRunner(args, device, device_ids, world_size)
    for epoch in range(args.epochs):
        loss = run_epoch(epoch)
        if rank == 0 and loss is not None:
            print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)

    if rank == 0:
        torch.save(run_epoch.model.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

answer = str(Path(__file__).resolve())
