"""Train a small classifier on synthetic data.

### BEGIN SOLUTION
The solution of chapter 5's exercise: the DistributedDataParallel (DDP)
version, one process per rank. exercises/05_ddp_train.py is the
single-process script it starts from (generated from this file).

    torchrun --standalone --nproc-per-node=2 05_ddp_train.py --epochs 3 --out final.pt

torchrun starts one process per rank and tells each who it is in environment
variables (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE). With a GPU per
process the ranks talk over NCCL; otherwise they use gloo on the CPU. Every
rank builds the same data set and the same initial model from --seed; each
trains on its own share of every global batch, and DDP averages the
gradients, so the result equals single-process training on the whole global
batch (shuffled per epoch as DistributedSampler shuffles it).
### EXERCISE
# One process, on the GPU if there is one:
#
#     python 05_ddp_train.py --epochs 3 --out final.pt
#
# Exercise (chapter 5): turn it into a DDP script that torchrun runs with two
# processes and that ends with the same parameters as single-process training
# on the same global batch. Change only what DDP needs: the process group, the
# sampler and its epoch, the per-rank batch size, the model wrapper. Keep
# make_dataset, make_model and the command-line options as they are: the
# checker relies on them.
### END SOLUTION
"""

import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

### BEGIN SOLUTION
# isort: split
import os

import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DistributedSampler

### EXERCISE
### END SOLUTION


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


def main():
    args = parse_args()
    torch.set_num_threads(1)  # a few small processes on a few cores: one thread each
    ### BEGIN SOLUTION
    # One GPU per process: NCCL. Fewer GPUs than processes: gloo on the CPU.
    gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    backend = "nccl" if gpus >= int(os.environ["LOCAL_WORLD_SIZE"]) else "gloo"
    dist.init_process_group(backend)  # reads RANK, WORLD_SIZE, MASTER_ADDR/PORT set by torchrun
    rank, world_size = dist.get_rank(), dist.get_world_size()
    if backend == "nccl":
        device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    ### EXERCISE
    # rank, world_size = 0, 1
    # device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ### END SOLUTION
    if rank == 0:
        print(f"{world_size} process(es), training on {device}", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(device)
    ### BEGIN SOLUTION
    # Each rank gets its own 1/world_size of every epoch, shuffled by (seed, epoch), and a
    # per-rank batch that makes the global batch --batch-size.
    sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
    loader = DataLoader(dataset, batch_size=args.batch_size // world_size, sampler=sampler)
    # DDP broadcasts rank 0's weights, then averages the gradients over the ranks in backward().
    net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    ### EXERCISE
    # gen = torch.Generator().manual_seed(args.seed)
    # loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, generator=gen)
    # net = model
    ### END SOLUTION
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        ### BEGIN SOLUTION
        sampler.set_epoch(epoch)  # a new order each epoch, the same on every rank
        ### EXERCISE
        ### END SOLUTION
        for X, y in loader:
            X, y = X.to(device), y.to(device)
            loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            # .item() waits for the device: once per epoch, for the log line only.
            print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)

    if rank == 0:
        # The plain model's state_dict (not the DDP wrapper's, whose keys start with "module.").
        torch.save(model.state_dict(), args.out)
    ### BEGIN SOLUTION
    # Leave together: a rank that tears down its connections while rank 0 is still saving
    # can abort ("terminate called without an active exception") and fail the whole job.
    dist.barrier()
    dist.destroy_process_group()
    ### EXERCISE
    ### END SOLUTION


if __name__ == "__main__":
    main()
