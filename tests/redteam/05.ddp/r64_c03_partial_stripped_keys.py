# expect: pass
# hint:
# RIGHT: the DataLoader is built with functools.partial (its unused generator kept); rank 0 saves
# the wrapper's state_dict with 'module.' stripped (equal to model.state_dict()), atomically.

"""Train a small classifier on synthetic data, with DDP.

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


def main():
    args = parse_args()
    torch.set_num_threads(1)  # a few small processes on a few cores: one thread each
    n_local = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
    backend = "nccl" if torch.cuda.device_count() >= n_local and torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend, init_method="env://")
    rank, world_size = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cuda", local_rank) if backend == "nccl" else torch.device("cpu")
    if rank == 0:
        print(f"{world_size} process(es), training on {device}", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(device)
    sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
    gen = torch.Generator().manual_seed(args.seed)  # ignored for the order: the sampler decides
    make_loader = functools.partial(DataLoader, dataset, sampler=sampler, generator=gen)
    loader = make_loader(batch_size=args.batch_size // world_size)
    net = DDP(model) if backend == "gloo" else DDP(model, device_ids=[local_rank], output_device=local_rank)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for step, (X, y) in enumerate(loader):
            out = net(X.to(device, non_blocking=True))
            loss = F.cross_entropy(out, y.to(device, non_blocking=True))
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch + 1}: {step + 1} steps, last loss {loss.item():.4f}", flush=True)

    if rank == 0:
        state = {k.removeprefix("module."): v for k, v in net.state_dict().items()}
        tmp = f"{args.out}.tmp"
        torch.save(state, tmp)
        os.replace(tmp, args.out)  # atomic: nobody sees a half-written file
    dist.barrier()
    dist.destroy_process_group()


answer = str(__import__("pathlib").Path(__file__).resolve())  # the script, as check() takes it

if __name__ == "__main__":
    main()
