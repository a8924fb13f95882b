# expect: pass a helper picks backend and device (dist.is_nccl_available and device count), the model is built inline in DDP and saved through net.module.state_dict(), zero_grad(set_to_none) before the forward, a while loop over epochs
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


def pick_backend_and_device():
    """nccl and cuda:LOCAL_RANK when each local process has a GPU, else gloo on the CPU."""
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    local_procs = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    own_gpu = dist.is_nccl_available() and torch.cuda.device_count() >= local_procs
    if own_gpu:
        return "nccl", torch.device("cuda", local_rank), local_rank
    return "gloo", torch.device("cpu"), None


def main():
    args = parse_args()
    torch.set_num_threads(1)
    backend, device, gpu = pick_backend_and_device()
    if gpu is not None:
        torch.cuda.set_device(gpu)
    dist.init_process_group(backend)
    group = dist.group.WORLD
    rank, world_size = dist.get_rank(group), dist.get_world_size(group)
    if rank == 0:
        print(f"{world_size} process(es), training on {device}", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
    loader = DataLoader(dataset, sampler=sampler, batch_size=args.batch_size // world_size)
    net = DDP(make_model(args.seed).to(device), device_ids=None if gpu is None else [gpu])
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    epoch = 0
    while epoch < args.epochs:
        sampler.set_epoch(epoch)
        for step, (X, y) in enumerate(loader):
            opt.zero_grad(set_to_none=True)
            out = net(X.to(device, non_blocking=True))
            loss = F.cross_entropy(out, y.to(device, non_blocking=True))
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch + 1}: {step + 1} steps, last loss {loss.item():.4f}", flush=True)
        epoch += 1

    if rank == 0:
        # net.module is the plain model: its keys carry no "module." prefix
        torch.save(net.module.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

answer = str(Path(__file__).resolve())
