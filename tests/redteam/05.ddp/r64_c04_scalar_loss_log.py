# expect: pass
# hint:
# RIGHT: besides DDP's own all-reduce it all-reduces one scalar per epoch for a global-loss log line
# (a few bytes, not a model's worth); an iterator loop, and no_grad around the logging.

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
    torch.set_num_threads(1)
    world_local = int(os.environ["LOCAL_WORLD_SIZE"])
    nccl = torch.cuda.is_available() and torch.cuda.device_count() >= world_local
    dist.init_process_group("nccl" if nccl else "gloo")
    rank, world_size = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"])) if nccl else torch.device("cpu")
    if nccl:
        torch.cuda.set_device(device)

    dataset = make_dataset(args.samples, args.seed)
    sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
    per_rank = args.batch_size // world_size
    loader = DataLoader(dataset, batch_size=per_rank, sampler=sampler, shuffle=False)
    model = make_model(args.seed).to(device)
    net = DDP(model, device_ids=[device.index] if nccl else None)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    epoch = 0
    while epoch < args.epochs:
        sampler.set_epoch(epoch)
        batches = iter(loader)
        while (batch := next(batches, None)) is not None:
            X, y = (t.to(device) for t in batch)
            loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            mean_loss = loss.detach().clone()
            dist.all_reduce(mean_loss)  # every rank calls it: one scalar per epoch
            mean_loss /= world_size
        if rank == 0:
            print(f"epoch {epoch + 1}: last step's loss, mean over ranks {mean_loss.item():.4f}", flush=True)
        epoch += 1

    if rank == 0:
        torch.save(model.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


answer = str(__import__("pathlib").Path(__file__).resolve())  # the script, as check() takes it

if __name__ == "__main__":
    main()
