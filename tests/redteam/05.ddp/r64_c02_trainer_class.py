# expect: pass
# hint:
# RIGHT: a callable class runs each epoch; nccl gets device_id, DDP gets bucket options;
# zero_grad(set_to_none=True) before the forward; the group is left in a finally.

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


class Trainer:
    """Holds the DDP model, its sampler and optimizer; trainer(epoch) runs one epoch."""

    def __init__(self, args, device, local_rank):
        self.device = device
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()
        dataset = make_dataset(args.samples, args.seed)
        self.model = make_model(args.seed).to(device)
        self.sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed, drop_last=False)
        self.loader = DataLoader(
            dataset, batch_size=args.batch_size // self.world_size, sampler=self.sampler
        )
        self.net = DDP(
            self.model,
            device_ids=[local_rank] if device.type == "cuda" else None,
            bucket_cap_mb=1,
            gradient_as_bucket_view=True,
        )
        self.opt = torch.optim.SGD(self.net.parameters(), lr=args.lr)

    def __call__(self, epoch):
        self.sampler.set_epoch(epoch)
        loss = None
        for X, y in self.loader:
            self.opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(self.net(X.to(self.device)), y.to(self.device))
            loss.backward()
            self.opt.step()
        return loss


def main():
    args = parse_args()
    torch.set_num_threads(1)
    local_rank = int(os.environ["LOCAL_RANK"])
    gpus_needed = int(os.environ["LOCAL_WORLD_SIZE"])
    if torch.cuda.is_available() and torch.cuda.device_count() >= gpus_needed:
        device = torch.device(f"cuda:{local_rank}")
        torch.cuda.set_device(device)
        dist.init_process_group("nccl", device_id=device)
    else:
        device = torch.device("cpu")  # gloo: every rank on the CPU
        dist.init_process_group("gloo")
    try:
        trainer = Trainer(args, device, local_rank)
        for epoch in range(args.epochs):
            loss = trainer(epoch)
            if trainer.rank == 0:
                print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}", flush=True)
        if trainer.rank == 0:
            torch.save(trainer.model.state_dict(), args.out)
        dist.barrier()
    finally:
        dist.destroy_process_group()


answer = str(__import__("pathlib").Path(__file__).resolve())  # the script, as check() takes it

if __name__ == "__main__":
    main()
