# expect: fail sampler.set_epoch(epoch) is never called, so every epoch repeats the first epoch's order
# hint: set_epoch|same (order|shuffle)|(order|shuffle).{0,40}(repeat|every epoch|each epoch)|repeat.{0,30}(first|order)
# WRONG: without set_epoch the DistributedSampler shuffles every epoch like epoch 0,
# so from epoch 2 on the batches differ from the reference's.

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
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    # NCCL only when every process on this machine has a GPU of its own; else gloo on the CPU.
    use_nccl = torch.cuda.is_available() and torch.cuda.device_count() >= local_world
    backend = "nccl" if use_nccl else "gloo"
    if use_nccl:
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    dist.init_process_group(backend)
    rank, world_size = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        print(f"{world_size} process(es), {backend}, training on {device}", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(device)
    sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
    loader = DataLoader(dataset, batch_size=args.batch_size // world_size, sampler=sampler)
    net = DDP(model, device_ids=[local_rank] if use_nccl else None)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        for X, y in loader:
            X, y = X.to(device), y.to(device)
            loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            loss.backward()  # DDP averages the gradients over the ranks here
            opt.step()
        if rank == 0:
            print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)

    if rank == 0:
        # The plain model's state_dict (not the DDP wrapper's, whose keys start with "module.").
        torch.save(model.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


answer = str(__import__("pathlib").Path(__file__).resolve())  # the script, as check() takes it

if __name__ == "__main__":
    main()
