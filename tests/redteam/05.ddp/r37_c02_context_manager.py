# expect: pass dataclass + context manager for the process group, saves ddp.module.state_dict()
# hint:

import tempfile
from pathlib import Path
SCRIPT = r'''"""Train a small classifier on synthetic data, data-parallel over torchrun's processes.

    torchrun --standalone --nproc-per-node=2 train.py --epochs 3 --out final.pt
"""

import argparse
import contextlib
import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel
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


@dataclass(frozen=True)
class World:
    rank: int
    size: int
    device: torch.device
    device_ids: list | None  # for DistributedDataParallel

    @property
    def is_main(self):
        return self.rank == 0


@contextlib.contextmanager
def process_group():
    """Join torchrun's group; leave it together with the other ranks, whatever happens."""
    local_rank = int(os.environ["LOCAL_RANK"])
    procs_here = int(os.environ["LOCAL_WORLD_SIZE"])
    gpu_each = torch.cuda.is_available() and torch.cuda.device_count() >= procs_here
    dist.init_process_group(backend="nccl" if gpu_each else "gloo")
    try:
        if gpu_each:
            torch.cuda.set_device(local_rank)
            world = World(dist.get_rank(), dist.get_world_size(),
                          torch.device(f"cuda:{local_rank}"), [local_rank])
        else:  # gloo: all ranks compute on the CPU, never sharing one GPU
            world = World(dist.get_rank(), dist.get_world_size(), torch.device("cpu"), None)
        yield world
    finally:
        dist.destroy_process_group()


def train(args, world):
    data = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(world.device)
    if args.batch_size % world.size:
        raise SystemExit(f"--batch-size {args.batch_size} does not split over {world.size} ranks")
    sampler = DistributedSampler(data, num_replicas=world.size, rank=world.rank,
                                 shuffle=True, seed=args.seed)
    batches = DataLoader(data, batch_size=args.batch_size // world.size, sampler=sampler)
    ddp = DistributedDataParallel(model, device_ids=world.device_ids)
    sgd = torch.optim.SGD(ddp.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        sampler.set_epoch(epoch - 1)  # the same epoch numbers as range(args.epochs)
        for inputs, labels in batches:
            inputs = inputs.to(world.device, non_blocking=True)
            labels = labels.to(world.device, non_blocking=True)
            sgd.zero_grad(set_to_none=True)
            F.cross_entropy(ddp(inputs), labels).backward()  # DDP averages the gradients here
            sgd.step()
        if world.is_main:
            print(f"epoch {epoch} done", flush=True)
    return ddp


def main():
    args = parse_args()
    torch.set_num_threads(1)
    with process_group() as world:
        if world.is_main:
            print(f"{world.size} process(es), training on {world.device}", flush=True)
        ddp = train(args, world)
        if world.is_main:
            # the module inside the wrapper: keys without "module."
            torch.save(ddp.module.state_dict(), args.out)
        dist.barrier()


if __name__ == "__main__":
    main()
'''
_folder = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp"
_folder.mkdir(parents=True, exist_ok=True)
_path = _folder / "r37_c02_context_manager_train.py"
_path.write_text(SCRIPT)
answer = str(_path)  # the check cell passes the script's path
