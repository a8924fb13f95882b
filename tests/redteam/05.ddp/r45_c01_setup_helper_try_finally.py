# expect: pass setup() helper, init_process_group(device_id=...), ddp.module.state_dict(), try/finally
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data with DDP: setup/cleanup helpers, try/finally."""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


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


def setup():
    """Join torchrun's group; return (rank, world_size, local_rank, device, is_nccl)."""
    local_rank = int(os.environ["LOCAL_RANK"])
    gpus_per_process = torch.cuda.device_count() >= int(os.environ["LOCAL_WORLD_SIZE"])
    if gpus_per_process:
        device = torch.device(f"cuda:{local_rank}")
        torch.cuda.set_device(device)
        dist.init_process_group(backend="nccl", device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group(backend="gloo")
    return dist.get_rank(), dist.get_world_size(), local_rank, device, gpus_per_process


def main():
    args = parse_args()
    torch.set_num_threads(1)
    rank, world_size, local_rank, device, is_nccl = setup()
    try:
        if rank == 0:
            print(f"{world_size} process(es), training on {device}", flush=True)
        dataset = make_dataset(args.samples, args.seed)
        model = make_model(args.seed).to(device)
        sampler = DistributedSampler(
            dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed
        )
        loader = DataLoader(dataset, batch_size=args.batch_size // world_size, sampler=sampler)
        ddp = DistributedDataParallel(model, device_ids=[local_rank] if is_nccl else None)
        opt = torch.optim.SGD(ddp.parameters(), lr=args.lr)
        for epoch in range(args.epochs):
            sampler.set_epoch(epoch)
            for X, y in loader:
                X, y = X.to(device, non_blocking=True), y.to(device, non_blocking=True)
                opt.zero_grad(set_to_none=True)
                loss = F.cross_entropy(ddp(X), y)
                loss.backward()
                opt.step()
            if rank == 0:
                print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)
        if rank == 0:
            torch.save(ddp.module.state_dict(), args.out)  # ddp.module is model: plain keys
        if is_nccl:
            dist.barrier(device_ids=[local_rank])
        else:
            dist.barrier()
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''

_folder = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp"
_folder.mkdir(parents=True, exist_ok=True)
_path = _folder / "r45_c01_setup_helper_try_finally.py"
_path.write_text(SCRIPT)
answer = str(_path)
