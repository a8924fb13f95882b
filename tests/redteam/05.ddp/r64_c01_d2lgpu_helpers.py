# expect: pass
# hint:
# RIGHT: choose_backend()/rank_device() from d2lgpu.distributed (the chapter's own rule);
# net.module is the plain model, so net.module.state_dict() has no 'module.' prefix.

"""Train a small classifier on synthetic data, with DDP.

    torchrun --standalone --nproc-per-node=2 05_ddp_train.py --epochs 3 --out final.pt
"""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from d2lgpu.distributed import choose_backend, rank_device


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
    backend = choose_backend()  # nccl only when every local rank has a GPU of its own
    local_rank = int(os.environ["LOCAL_RANK"])
    device = rank_device(backend, local_rank)  # cuda:LOCAL_RANK under nccl, else the CPU
    if device.type == "cuda":
        torch.cuda.set_device(device)
    dist.init_process_group(backend)
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    if rank == 0:
        print(f"{world_size} process(es), training on {device}", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(device)
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed)
    assert args.batch_size % world_size == 0, "the global batch must split evenly over the ranks"
    loader = DataLoader(dataset, batch_size=args.batch_size // world_size, sampler=sampler)
    net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)  # the same tensors as net.parameters()

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for X, y in loader:
            X, y = X.to(device), y.to(device)
            opt.zero_grad()
            F.cross_entropy(net(X), y).backward()
            opt.step()

    if rank == 0:
        torch.save(net.module.state_dict(), args.out)  # net.module is model: plain keys
    dist.barrier()
    dist.destroy_process_group()


answer = str(__import__("pathlib").Path(__file__).resolve())  # the script, as check() takes it

if __name__ == "__main__":
    main()
