"""Train a small classifier with DistributedDataParallel: the script torchrun launches.

torchrun starts one process per rank and tells each, in environment variables, who it is
(RANK, WORLD_SIZE, LOCAL_RANK, ...). Every process runs this same file: it joins the process
group, trains its share of each batch, and DDP averages the gradients over all ranks.

One machine, 2 processes (with a GPU each they use NCCL, otherwise gloo on the CPU):

    torchrun --standalone --nproc-per-node=2 scripts/train_ddp.py --epochs 3

Several machines: run the same line on every machine. HOST is any one of them, reachable
from the others; the rendezvous there decides which process becomes rank 0:

    torchrun --nnodes=2 --nproc-per-node=4 --rdzv-backend=c10d \\
        --rdzv-endpoint=HOST:29400 --rdzv-id=job42 \\
        scripts/train_ddp.py --checkpoint-dir /shared/ckpt/job42

Slurm, in an sbatch script asking for --nodes=2 --ntasks-per-node=1 (one torchrun per node):

    head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
    srun torchrun --nnodes="$SLURM_NNODES" --nproc-per-node=4 --rdzv-backend=c10d \\
        --rdzv-endpoint="$head:29400" --rdzv-id="$SLURM_JOB_ID" \\
        scripts/train_ddp.py --checkpoint-dir /shared/ckpt/"$SLURM_JOB_ID"

Faults: add --max-restarts=3 to torchrun and a failed rank restarts the whole job; on a
restart the script continues from its newest intact checkpoint by itself. (Also export
TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1: with the store torchrun shares by default, a restarted
rank can read the previous attempt's addresses and fail to connect,
pytorch/pytorch#135712.) To continue a job that ended, run it again with --resume. The
checkpoint directory must be one that every machine sees (a shared filesystem): rank 0
writes it, every rank reads it.

What is not about DDP lives in the d2lgpu package: the backend rule (d2lgpu.distributed),
checkpoints that a crash cannot damage unnoticed (d2lgpu.training_checkpoints), and the fault
injection the tests use (d2lgpu.faults: TRAIN_DDP_FAIL_AT_STEP=S kills a rank after step S).
"""

import contextlib
import hashlib
import io
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler
from train_ddp_setup import (  # beside this file: its command line and data, not about DDP
    AMP_DTYPES,
    CONFIG_KEYS,
    UsageError,
    backend_note,
    exit_now,
    fashion_mnist,
    find_checkpoint,
    micro_batch_size,
    parse_args,
    require_torchrun,
    steps_per_epoch,
    synthetic_dataset,
    warn_if_restarts_share_the_store,
)

from d2lgpu.devices import num_gpus
from d2lgpu.distributed import choose_backend, rank_device
from d2lgpu.faults import maybe_inject_fault
from d2lgpu.models import MLP
from d2lgpu.training_checkpoints import (
    CheckpointError,
    rng_states,
    save_checkpoint,
    set_rng_states,
    write_atomic,
)

# --- 1. Join the process group --------------------------------------------------------------


def join_process_group(args, local_rank, local_world_size, log):
    """Choose the backend (nccl needs a GPU per process), init the group; return the device."""
    backend = choose_backend(local_world_size, requested=args.backend)
    why = backend_note(backend, args.backend, local_world_size, num_gpus(), log)
    # Under gloo every rank stays on the CPU: ranks that share one GPU never touch it.
    device = rank_device(backend, local_rank)
    timeout = timedelta(seconds=args.timeout_s)
    if backend == "nccl":
        torch.cuda.set_device(device)  # before init, or every rank would use GPU 0
        dist.init_process_group("nccl", timeout=timeout, device_id=device)
    else:
        dist.init_process_group("gloo", timeout=timeout)
    log(f"backend {backend}: {why}")
    warn_if_restarts_share_the_store(log)
    return device


# --- 2. Train: each rank its share of every batch; DDP averages the gradients ----------------


class Trainer:
    def __init__(self, args, dataset, device, rank, world_size, micro_batch, log):
        self.args, self.device, self.log = args, device, log
        self.rank, self.world_size = rank, world_size
        self.model = model = MLP(28 * 28, hidden=(64,), num_classes=10).to(device)
        # DDP: on backward, gradients are averaged over ranks (all-reduce) in buckets while the
        # backward pass still runs, so that communication overlaps computation.
        device_ids = [device.index] if device.type == "cuda" else None
        self.ddp_model = DDP(model, device_ids=device_ids)
        self.optimizer = torch.optim.SGD(self.ddp_model.parameters(), lr=args.lr, momentum=0.9)
        self.amp_dtype = AMP_DTYPES[args.amp]
        # fp16 gradients can underflow to zero: the scaler multiplies the loss before backward
        # and divides the gradients back before the step. bf16 has fp32's range and needs none.
        self.scaler = torch.amp.GradScaler(device.type, enabled=args.amp == "fp16")
        # Each rank sees its own 1/world_size of every epoch. The shuffle depends only on the
        # seed and the epoch, not on the world size: rank r takes every world_size-th index, so
        # the union over ranks of step i's batches is the batch i of a 1-process run.
        self.sampler = DistributedSampler(
            dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed
        )
        # drop_last: equal batch sizes on every rank. With mean-reduced losses, the average of
        # the ranks' gradients then equals the gradient of the whole global batch.
        self.loader = DataLoader(
            dataset, batch_size=micro_batch, sampler=self.sampler, drop_last=True
        )
        self.steps_per_epoch = steps_per_epoch(len(dataset), len(self.loader), args, log)
        log(
            f"global batch {args.batch_size} = {world_size} rank(s) x {args.accumulate} "
            f"accumulation step(s) x {micro_batch}; {self.steps_per_epoch} steps per epoch"
        )

    def restore(self, ckpt):
        """Continue where the checkpoint left off; return its epoch."""
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.scaler.load_state_dict(ckpt["scaler"])
        # Iterating a DataLoader draws a seed from the global RNG: without this, the resumed
        # run would continue from another random state than the uninterrupted one. Every rank
        # seeded and drew the same, so rank 0's states are everyone's.
        set_rng_states(ckpt["rng"], self.device)
        return ckpt["epoch"]

    def _step(self, batches):
        """One optimizer step over --accumulate micro-batches; the loss stays on the device."""
        accumulate, loss_sum = self.args.accumulate, torch.zeros((), device=self.device)
        for k in range(accumulate):
            x, y = next(batches)
            x, y = x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
            # Only the last micro-batch's backward all-reduces; under no_sync the others just
            # add their gradients into .grad locally. The forward must be inside no_sync too.
            last = k == accumulate - 1
            with contextlib.nullcontext() if last else self.ddp_model.no_sync():
                # A no-op on the CPU with --amp none.
                amp = torch.autocast(
                    self.device.type, dtype=self.amp_dtype, enabled=self.amp_dtype is not None
                )
                with amp:
                    loss = F.cross_entropy(self.ddp_model(x), y) / accumulate
                self.scaler.scale(loss).backward()
            loss_sum += loss.detach()  # no .item(): no CPU-GPU sync point per step
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad(set_to_none=True)
        return loss_sum

    def train(self, start_epoch, epochs, steps_per_epoch):
        step = start_epoch * steps_per_epoch
        for epoch in range(start_epoch, epochs):
            self.sampler.set_epoch(epoch)  # a new shuffle each epoch, the same on every rank
            self.ddp_model.train()
            t0, loss_sum, batches = (
                time.perf_counter(),
                torch.zeros((), device=self.device),
                iter(self.loader),
            )
            for _ in range(steps_per_epoch):
                loss_sum += self._step(batches)
                step += 1
                maybe_inject_fault(step, self.rank, self.world_size)
            # The mean loss over all ranks: one all-reduce per epoch, and .item() is the one
            # CPU-GPU sync point of the epoch.
            dist.all_reduce(loss_sum)
            mean_loss = loss_sum.item() / (self.world_size * steps_per_epoch)
            rate = steps_per_epoch * self.args.batch_size / (time.perf_counter() - t0)
            self.log(
                f"epoch {epoch + 1}/{epochs}  step {step}  loss {mean_loss:.4f}  "
                f"{rate:,.0f} samples/s"
            )
            if not self.args.dry_run:
                self.save(epoch + 1)

    def save(self, epoch):
        # After the epoch's last all-reduce every rank holds the same weights, so rank 0
        # alone writes; a barrier before the write would protect nothing. The barrier
        # after it matters: no rank starts the next epoch before the file is complete, so
        # a rank that fails later is restarted from this epoch, not from an older one.
        if self.rank == 0:
            ckpt_dir = Path(self.args.checkpoint_dir)
            ckpt_dir.mkdir(parents=True, exist_ok=True)
            state = {
                "epoch": epoch,
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "scaler": self.scaler.state_dict(),
                "rng": rng_states(self.device),
                "config": {k: vars(self.args)[k] for k in CONFIG_KEYS},
            }
            save_checkpoint(ckpt_dir, epoch, state)
        dist.barrier()

    def replicas_agree(self):
        """DDP's promise: every replica holds the same parameters. Each rank hashes its
        parameters and every rank gets all the hashes (one all_gather_object, at the end)."""
        local = hashlib.sha256()
        for p in self.model.parameters():
            local.update(p.detach().cpu().numpy().tobytes())
        digests = [None] * self.world_size
        dist.all_gather_object(digests, local.hexdigest())
        return len(set(digests)) == 1


def main(argv=None):
    args = parse_args(argv, __doc__)  # first: --help works without torchrun
    require_torchrun(os.environ)  # torchrun tells each process who it is:
    rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ["LOCAL_RANK"])  # this process's number on its machine
    local_world_size = int(os.environ["LOCAL_WORLD_SIZE"])  # processes on this machine
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))

    def log(msg):  # rank 0 alone speaks; the others would print the same lines again
        if rank == 0:
            print(msg, flush=True)

    micro_batch = micro_batch_size(args, world_size)
    # torchrun sets OMP_NUM_THREADS=1 for several processes per machine, not for one. A matmul
    # split over threads adds up in another order, so we fix the count: runs with different
    # layouts then compute the same way, and N processes do not fight over the cores.
    torch.set_num_threads(args.threads)
    device = join_process_group(args, local_rank, local_world_size, log)
    try:
        nodes = int(os.environ.get("GROUP_WORLD_SIZE", 1))
        log(
            f"world size {world_size} on {nodes} node(s), device {device}, "
            f"{torch.get_num_threads()} thread(s) per process"
        )
        run(args, device, rank, world_size, local_rank, restart, micro_batch, log)
    finally:
        dist.destroy_process_group()


def run(args, device, rank, world_size, local_rank, restart, micro_batch, log):
    # The same seed on every rank: the same initial weights (DDP also copies rank 0's weights
    # to the others when it wraps the model) and the same draws from the global RNG.
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    if args.data == "synthetic":
        dataset = synthetic_dataset(args.samples, args.seed)
    else:
        dataset = fashion_mnist(args.data_dir, local_rank)
    ckpt = find_checkpoint(args, restart, log)  # fresh, --resume, or torchrun's restart
    trainer = Trainer(args, dataset, device, rank, world_size, micro_batch, log)
    start_epoch = 0 if ckpt is None else trainer.restore(ckpt)
    epochs, steps = args.epochs, trainer.steps_per_epoch
    if args.dry_run:
        epochs, steps = start_epoch + 1, min(steps, 2)
        log("dry run: one epoch of at most 2 steps, no checkpoint")
    trainer.train(start_epoch, epochs, steps)
    same = trainer.replicas_agree()
    log(f"parameters identical on all {world_size} ranks: {'yes' if same else 'NO'}")
    if rank == 0 and not args.dry_run:
        Path(args.checkpoint_dir).mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        torch.save(trainer.model.state_dict(), buf)
        final = write_atomic(Path(args.checkpoint_dir) / "final.pt", buf.getvalue())
        log(f"final parameters in {final}")  # torch.load(..., weights_only=True)


if __name__ == "__main__":
    try:
        main()
    except (UsageError, CheckpointError) as e:
        # Every rank meets the same problem; rank 0 says it, all exit non-zero.
        if os.environ.get("RANK", "0") == "0":
            print(f"train_ddp.py: error: {e}", file=sys.stderr, flush=True)
        exit_now(2 if isinstance(e, UsageError) else 1)
    exit_now(0)
