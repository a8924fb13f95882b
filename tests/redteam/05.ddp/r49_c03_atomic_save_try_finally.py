# expect: pass setup() helper, atomic save (temp file + os.replace) of CPU copies, try/finally destroy, keeps a harmless generator, sum loss / real batch size
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data, with DDP under torchrun."""

import argparse
import os
import tempfile

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
    p = argparse.ArgumentParser(description="Train a small classifier on synthetic data.")
    p.add_argument("--epochs", type=int, default=3, help="passes over the data (default 3)")
    p.add_argument("--batch-size", type=int, default=32, help="global batch size (default 32)")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    p.add_argument("--samples", type=int, default=256, help="data set size (default 256)")
    p.add_argument("--seed", type=int, default=0, help="seeds data, model, shuffle (default 0)")
    p.add_argument("--out", default="ddp_final.pt", help="where to save the final state_dict")
    return p.parse_args(argv)


def setup():
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    nprocs_here = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    if torch.cuda.device_count() >= nprocs_here:
        dist.init_process_group("nccl")
        torch.cuda.set_device(local_rank)
        return torch.device("cuda", local_rank)
    dist.init_process_group("gloo")
    return torch.device("cpu")


def save_atomically(state, path):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    os.close(fd)
    try:
        torch.save(state, tmp)
        os.replace(tmp, path)  # readers see the old file or the whole new one
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def main():
    args = parse_args()
    torch.set_num_threads(1)
    device = setup()
    try:
        rank, world_size = dist.get_rank(), dist.get_world_size()
        if rank == 0:
            print(f"{world_size} process(es), training on {device}", flush=True)
        dataset = make_dataset(args.samples, args.seed)
        model = make_model(args.seed).to(device)
        gen = torch.Generator().manual_seed(args.seed)  # unused by the sampler, harmless
        sampler = DistributedSampler(dataset, seed=args.seed, shuffle=True)
        loader = DataLoader(dataset, args.batch_size // world_size, sampler=sampler, generator=gen)
        net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None,
                  broadcast_buffers=False, gradient_as_bucket_view=True)
        opt = torch.optim.SGD(net.parameters(), lr=args.lr)
        for epoch in range(args.epochs):
            sampler.set_epoch(epoch)
            for i, (X, y) in enumerate(loader):
                X, y = X.to(device), y.to(device)
                # the mean over this batch's real size: the same as reduction="mean"
                loss = F.cross_entropy(net(X), y, reduction="sum") / y.numel()
                opt.zero_grad()
                loss.backward()
                opt.step()
            if rank == 0:
                print(f"epoch {epoch + 1}: {i + 1} steps, last batch loss {loss.item():.4f}", flush=True)
        if rank == 0:
            save_atomically({k: v.detach().cpu().clone() for k, v in model.state_dict().items()}, args.out)
        dist.barrier()
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r49_c03_atomic_save_try_finally.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
