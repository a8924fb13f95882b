# expect: pass functional style; per-rank model seed made harmless by DDP's initial broadcast, CPU copy of state saved
# hint:

import tempfile
from pathlib import Path
SCRIPT = r'''"""DDP version of the synthetic 4-class trainer (run it with torchrun).

    torchrun --standalone --nproc-per-node=2 train.py --epochs 3 --out final.pt
"""

import argparse
import os

import torch
import torch.nn.functional as F
from torch import distributed as dist
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


def pick_device():
    """(backend, device): nccl and this rank's own GPU only if every local rank has one."""
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    n_local = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    if torch.cuda.is_available() and torch.cuda.device_count() >= n_local:
        return "nccl", torch.device("cuda", local_rank)
    return "gloo", torch.device("cpu")


def run(args):
    backend, device = pick_device()
    if device.type == "cuda":
        torch.cuda.set_device(device)
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    leader = rank == 0
    if leader:
        print(f"{world} process(es), training on {device} ({backend})", flush=True)

    ds = make_dataset(args.samples, args.seed)
    # Each rank may build its model from its own seed: DistributedDataParallel's constructor
    # broadcasts rank 0's parameters and buffers to every rank, so all ranks start from
    # make_model(args.seed), the single-process initial weights.
    model = make_model(args.seed + rank).to(device)
    net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    shard = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=args.seed)
    per_rank = args.batch_size // world
    loader = DataLoader(ds, batch_size=per_rank, sampler=shard, shuffle=False)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)

    step = 0
    for epoch in range(args.epochs):
        shard.set_epoch(epoch)
        for xb, yb in loader:
            logits = net(xb.to(device))
            loss = F.cross_entropy(logits, yb.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        if leader:
            print(f"epoch {epoch + 1}/{args.epochs}, step {step}: loss {loss.item():.4f}", flush=True)

    if leader:
        state = {name: t.detach().cpu() for name, t in model.state_dict().items()}
        torch.save(state, args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    run(parse_args())
'''
_folder = Path(tempfile.gettempdir()) / "d2lgpu-redteam-05.ddp"
_folder.mkdir(parents=True, exist_ok=True)
_path = _folder / "r37_c03_rank_seeded_init_train.py"
_path.write_text(SCRIPT)
answer = str(_path)  # the check cell passes the script's path
