# expect: pass BatchSampler(DistributedSampler) passed as batch_sampler=, set_epoch through loader.batch_sampler.sampler; functools.partial for DataLoader, DDP and the loss
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data, with DDP under torchrun."""

import argparse
import functools
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import BatchSampler, DataLoader, TensorDataset
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


def main():
    args = parse_args()
    torch.set_num_threads(1)
    env = {k: int(os.environ[k]) for k in ("LOCAL_RANK", "LOCAL_WORLD_SIZE")}
    gpus_each = torch.cuda.is_available() and torch.cuda.device_count() >= env["LOCAL_WORLD_SIZE"]
    backend = "nccl" if gpus_each else "gloo"
    dist.init_process_group(backend=backend, init_method="env://")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    device = torch.device("cuda", env["LOCAL_RANK"]) if gpus_each else torch.device("cpu")
    if gpus_each:
        torch.cuda.set_device(device)
    if rank == 0:
        print(f"{world_size} process(es), training on {device} ({backend})", flush=True)

    dataset = make_dataset(args.samples, args.seed)
    model = make_model(args.seed).to(device)
    batches = BatchSampler(
        DistributedSampler(dataset, shuffle=True, seed=args.seed),
        batch_size=args.batch_size // world_size,
        drop_last=False,
    )
    make_loader = functools.partial(DataLoader, dataset, num_workers=0)
    loader = make_loader(batch_sampler=batches)
    wrap = functools.partial(DDP, device_ids=[device.index] if gpus_each else None)
    net = wrap(model)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)
    step = functools.partial(F.cross_entropy, reduction="mean")

    for epoch in range(args.epochs):
        loader.batch_sampler.sampler.set_epoch(epoch)
        losses = [None]
        for X, y in loader:
            opt.zero_grad()
            loss = step(net(X.to(device)), y.to(device))
            loss.backward()
            opt.step()
            losses[-1] = loss.detach()
        if rank == 0:
            print(f"epoch {epoch + 1}: last batch loss {losses[-1].item():.4f}", flush=True)

    if rank == 0:
        state = model.state_dict()
        assert not any(k.startswith("module.") for k in state)
        torch.save(state, args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r49_c02_batch_sampler_partial.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
