# expect: pass process group as a contextmanager (barrier and destroy on exit), step closure, while loops over an explicit iterator, static_graph=True, optimizer over model.parameters()
# hint: 
import tempfile
from pathlib import Path

SCRIPT = r'''"""Train a small classifier on synthetic data, with DDP under torchrun."""

import argparse
import contextlib
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
    p = argparse.ArgumentParser(description="Train a small classifier on synthetic data.")
    p.add_argument("--epochs", type=int, default=3, help="passes over the data (default 3)")
    p.add_argument("--batch-size", type=int, default=32, help="global batch size (default 32)")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    p.add_argument("--samples", type=int, default=256, help="data set size (default 256)")
    p.add_argument("--seed", type=int, default=0, help="seeds data, model, shuffle (default 0)")
    p.add_argument("--out", default="ddp_final.pt", help="where to save the final state_dict")
    return p.parse_args(argv)


@contextlib.contextmanager
def process_group():
    """Join torchrun's group; yield (rank, world_size, device); barrier and leave together."""
    per_node = int(os.environ["LOCAL_WORLD_SIZE"])
    own_gpu = torch.cuda.device_count() >= per_node > 0
    dist.init_process_group("nccl" if own_gpu else "gloo")
    try:
        if own_gpu:
            device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
            torch.cuda.set_device(device)
        else:
            device = torch.device("cpu")  # gloo: every rank on the CPU
        yield dist.get_rank(), dist.get_world_size(), device
        dist.barrier()
    finally:
        dist.destroy_process_group()


def make_step(net, opt, device):
    def step(X, y):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(X.to(device)), y.to(device))
        loss.backward()
        opt.step()
        return loss
    return step


def main():
    args = parse_args()
    torch.set_num_threads(1)
    with process_group() as (rank, world_size, device):
        if rank == 0:
            print(f"{world_size} process(es), training on {device}", flush=True)
        dataset = make_dataset(args.samples, args.seed)
        model = make_model(args.seed).to(device)
        sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)
        loader = DataLoader(dataset, batch_size=args.batch_size // world_size, shuffle=False, sampler=sampler)
        net = DDP(model, device_ids=None if device.type == "cpu" else [device.index], static_graph=True)
        step = make_step(net, torch.optim.SGD(model.parameters(), lr=args.lr), device)
        epoch = 0
        while epoch < args.epochs:
            sampler.set_epoch(epoch)
            batches = iter(loader)
            loss = None
            while (batch := next(batches, None)) is not None:
                loss = step(*batch)
            epoch += 1
            if rank == 0:
                print(f"epoch {epoch}: last batch loss {loss.item():.4f}", flush=True)
        if rank == 0:
            torch.save(dict(model.state_dict()), args.out)


if __name__ == "__main__":
    main()
'''

_path = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp" / "r49_c04_context_manager.py"
_path.parent.mkdir(parents=True, exist_ok=True)
_path.write_text(SCRIPT)
answer = str(_path)
