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
rank can read the previous attempt's addresses and fail to connect, pytorch/pytorch#135712.) To continue a job
that ended, run it again with --resume. The checkpoint directory must be one that every
machine sees (a shared filesystem): rank 0 writes it, every rank reads it.

Fault injection, for the tests: TRAIN_DDP_FAIL_AT_STEP=S makes rank TRAIN_DDP_FAIL_RANK
(default: the last rank) SIGKILL itself after optimizer step S, in the first attempt only
(TORCHELASTIC_RESTART_COUNT=0), so that a restarted job runs through.
"""

import argparse
import contextlib
import hashlib
import io
import os
import random
import signal
import sys
import time
from datetime import timedelta
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

TORCHRUN_VARS = (
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",
    "MASTER_PORT",
)
KEEP_CHECKPOINTS = 2  # the newest, and the one before in case the newest is damaged
AMP_DTYPES = {"none": None, "bf16": torch.bfloat16, "fp16": torch.float16}
# Settings stored with each checkpoint; a resume with other values says so.
CONFIG_KEYS = ("seed", "batch_size", "lr", "data", "samples", "amp", "accumulate")


class UsageError(Exception):
    """A problem with how the script was called; the message says what to do."""


class CheckpointError(Exception):
    """A checkpoint that is missing, incomplete or damaged."""


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    pass


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="train_ddp.py", description=__doc__, formatter_class=_Formatter
    )
    p.add_argument("--epochs", type=int, default=3, help="passes over the training data")
    p.add_argument(
        "--batch-size",
        type=int,
        default=64,
        help="global batch: divided among the ranks (and the --accumulate steps)",
    )
    p.add_argument("--lr", type=float, default=0.05, help="SGD learning rate (momentum 0.9)")
    p.add_argument("--seed", type=int, default=0, help="seeds the data, the model and the shuffle")
    p.add_argument(
        "--data",
        choices=("synthetic", "fashion-mnist"),
        default="synthetic",
        help="synthetic: made from --seed, the same on every rank, no download",
    )
    p.add_argument("--samples", type=int, default=1024, help="size of the synthetic data set")
    p.add_argument("--data-dir", default="data", help="where FashionMNIST is (or is downloaded)")
    p.add_argument(
        "--amp",
        choices=tuple(AMP_DTYPES),
        default="none",
        help="autocast dtype; fp16 also uses a GradScaler",
    )
    p.add_argument(
        "--accumulate",
        type=int,
        default=1,
        metavar="K",
        help="micro-batches per optimizer step; DDP syncs only on the last (no_sync)",
    )
    p.add_argument(
        "--backend",
        choices=("auto", "nccl", "gloo"),
        default="auto",
        help="auto: nccl when every local rank has its own GPU, else gloo",
    )
    p.add_argument(
        "--threads", type=int, default=1, help="CPU threads per process (torch.set_num_threads)"
    )
    p.add_argument(
        "--checkpoint-dir",
        default="checkpoints/train_ddp",
        help="checkpoints after every epoch, and final.pt at the end",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue from the newest intact checkpoint in --checkpoint-dir",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="one epoch of at most 2 steps, writes nothing: checks the set-up",
    )
    p.add_argument(
        "--timeout-s",
        type=float,
        default=300,
        help="how long a collective waits for the other ranks before failing",
    )
    return p.parse_args(argv)


# ---------------------------------------------------------------------------------------------
# Data and model


def synthetic_dataset(samples, seed):
    """28x28 "images" labelled by a random linear teacher: learnable, and identical on every
    rank because they come from a generator seeded with --seed, not from the global RNG."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(samples, 1, 28, 28, generator=g)
    teacher = torch.randn(28 * 28, 10, generator=g)
    y = (x.flatten(1) @ teacher).argmax(dim=1)
    return TensorDataset(x, y)


def fashion_mnist(root, local_rank):
    from torchvision import datasets, transforms  # only this option needs torchvision

    error = None
    if local_rank == 0:  # one process per machine downloads; the others wait at the barrier
        try:
            datasets.FashionMNIST(root, train=True, download=True)
        except Exception as e:  # offline: URLError, socket errors, ...
            error = e
    dist.barrier()
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.2860,), (0.3530,))])
    try:
        return datasets.FashionMNIST(root, train=True, download=False, transform=tf)
    except RuntimeError as e:
        raise UsageError(
            f"FashionMNIST is not in {root!r} and could not be downloaded:\n"
            f"    {' '.join(str(error or e).split())}\n"
            "Without internet, copy its raw files there, or use --data synthetic."
        ) from None


class MLP(nn.Module):
    """Two linear layers, no BatchNorm and no dropout: nothing that behaves differently
    per rank, so a 2-rank run can match a 1-process run."""

    def __init__(self, hidden=64, num_classes=10):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(), nn.Linear(28 * 28, hidden), nn.ReLU(), nn.Linear(hidden, num_classes)
        )

    def forward(self, x):
        return self.net(x)


# ---------------------------------------------------------------------------------------------
# Checkpoints: ckpt-epochNNNN.pt, then its checksum ckpt-epochNNNN.pt.sha256 (`sha256sum -c`
# format). Both are written to a temporary file and renamed, so a crash never leaves half a
# file under the real name; the checksum file is written last, so a checkpoint without one is
# incomplete. A flipped byte would load silently as wrong weights: the checksum catches it.


def _write_atomic(path, data):
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())  # on disk before the rename makes it visible
    os.replace(tmp, path)  # atomic on POSIX: readers see the old file or the new one


def _sidecar(path):
    return path.with_name(path.name + ".sha256")


def list_checkpoints(ckpt_dir):
    """Checkpoint files in ckpt_dir, newest (highest epoch) first."""
    paths = Path(ckpt_dir).glob("ckpt-epoch*.pt")
    return sorted(paths, key=lambda p: int(p.stem.removeprefix("ckpt-epoch")), reverse=True)


def save_checkpoint(ckpt_dir, epoch, state):
    buf = io.BytesIO()
    torch.save(state, buf)
    data = buf.getvalue()
    path = Path(ckpt_dir) / f"ckpt-epoch{epoch:04d}.pt"
    _write_atomic(path, data)
    _write_atomic(_sidecar(path), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n".encode())
    for old in list_checkpoints(ckpt_dir)[KEEP_CHECKPOINTS:]:
        _sidecar(old).unlink(missing_ok=True)
        old.unlink(missing_ok=True)
    return path


def read_checkpoint(path):
    """Load one checkpoint after checking its sha256; CheckpointError if anything is off."""
    path = Path(path)
    try:
        expected = _sidecar(path).read_text().split()[0]
    except (OSError, IndexError):
        raise CheckpointError(f"{path.name}: no checksum file, the save did not finish") from None
    data = path.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise CheckpointError(
            f"{path.name}: sha256 mismatch ({len(data)} bytes, sha256 {actual[:12]}..., "
            f"expected {expected[:12]}...): the file is truncated or corrupted"
        )
    try:
        # weights_only: tensors and plain containers, no arbitrary pickled code.
        return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as e:
        raise CheckpointError(f"{path.name}: intact but cannot be loaded: {e}") from e


def load_newest_checkpoint(ckpt_dir, log):
    """The newest checkpoint that passes its checksum (warning about the ones that do not),
    None when there is no checkpoint at all, CheckpointError when none is intact."""
    problems = []
    for path in list_checkpoints(ckpt_dir):
        try:
            state = read_checkpoint(path)
        except CheckpointError as e:
            problems.append(str(e))
            log(f"warning: skipping damaged checkpoint {e}; trying the one before")
            continue
        return path, state
    if problems:
        raise CheckpointError(f"no intact checkpoint in {ckpt_dir}: " + "; ".join(problems))
    return None, None


def rng_states():
    np_state = np.random.get_state()
    return {
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
        "python": random.getstate(),
        # numpy's state holds an ndarray, which weights_only refuses: store it as a list.
        "numpy": (np_state[0], np_state[1].tolist(), *np_state[2:]),
    }


def set_rng_states(states):
    torch.set_rng_state(states["torch"])
    if states["cuda"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(states["cuda"])
    random.setstate(states["python"])
    kind, keys, *rest = states["numpy"]
    np.random.set_state((kind, np.array(keys, dtype=np.uint32), *rest))


def maybe_inject_fault(step, rank, world_size):
    """Die like a crashed machine (SIGKILL: no cleanup, no exception) when the test asks."""
    at = os.environ.get("TRAIN_DDP_FAIL_AT_STEP")
    victim = int(os.environ.get("TRAIN_DDP_FAIL_RANK", world_size - 1))
    first_attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0"
    if at is not None and int(at) == step and rank == victim and first_attempt:
        print(f"[rank {rank}] fault injection: SIGKILL after step {step}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)


# ---------------------------------------------------------------------------------------------


def choose_backend(requested, local_world_size, log):
    """NCCL needs a GPU per process; gloo runs anywhere. Every machine must choose the same."""
    gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if requested == "gloo":
        return "gloo", "asked for with --backend gloo"
    if gpus >= local_world_size:
        return "nccl", f"{gpus} GPU(s) for {local_world_size} process(es) per machine"
    why = f"{local_world_size} process(es) per machine but {gpus} GPU(s)"
    if requested == "nccl":
        log(
            f"warning: --backend nccl needs one GPU per process and there are {why}: "
            "falling back to gloo"
        )
    return "gloo", why


def main(argv=None):
    args = parse_args(argv)  # first: --help works without torchrun
    missing = [v for v in TORCHRUN_VARS if v not in os.environ]
    if missing:
        raise UsageError(
            f"not started by torchrun ({', '.join(missing)} not set). Launch it with torchrun, "
            "for example:\n"
            "    torchrun --standalone --nproc-per-node=2 scripts/train_ddp.py --epochs 3\n"
            "(see --help for several machines and Slurm)"
        )
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ["LOCAL_RANK"])
    local_world_size = int(os.environ["LOCAL_WORLD_SIZE"])
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))

    def log(msg):  # rank 0 alone speaks; the others would print the same lines again
        if rank == 0:
            print(msg, flush=True)

    for name in ("epochs", "batch_size", "samples", "accumulate", "threads"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be >= 1")
    if args.lr <= 0 or args.timeout_s <= 0:
        raise UsageError("--lr and --timeout-s must be > 0")
    micro_batch, rest = divmod(args.batch_size, world_size * args.accumulate)
    if rest or micro_batch == 0:
        raise UsageError(
            f"--batch-size {args.batch_size} must be a multiple of world size x --accumulate "
            f"= {world_size} x {args.accumulate}, so that every rank gets an equal share"
        )

    # torchrun sets OMP_NUM_THREADS=1 when it starts several processes per machine, not for
    # one. A matmul split over threads adds up in another order, so we fix the count: runs
    # with different process layouts then compute the same way, and N processes do not fight
    # over the cores.
    torch.set_num_threads(args.threads)

    backend, why = choose_backend(args.backend, local_world_size, log)
    timeout = timedelta(seconds=args.timeout_s)
    if backend == "nccl":
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)  # before init, or every rank would use GPU 0
        dist.init_process_group("nccl", timeout=timeout, device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group("gloo", timeout=timeout)
    log(f"backend {backend}: {why}")
    if int(os.environ.get("TORCHELASTIC_MAX_RESTARTS", "0")) > 0 and (
        os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True"
    ):
        log(
            "warning: with --max-restarts, export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 before "
            "torchrun: a restarted rank can otherwise read the previous attempt's addresses "
            "from the store torchrun shares, and fail to connect (pytorch/pytorch#135712)"
        )
    try:
        train(args, rank, world_size, local_rank, restart, device, micro_batch, log)
    finally:
        dist.destroy_process_group()


def train(args, rank, world_size, local_rank, restart, device, micro_batch, log):
    ckpt_dir = Path(args.checkpoint_dir)
    nodes = int(os.environ.get("GROUP_WORLD_SIZE", 1))
    log(
        f"world size {world_size} on {nodes} node(s), device {device}, "
        f"{torch.get_num_threads()} thread(s) per process"
    )

    # The same seed on every rank: the same initial weights (DDP also copies rank 0's weights
    # to the others when it wraps the model) and the same draws from the global RNG.
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)

    if args.data == "synthetic":
        dataset = synthetic_dataset(args.samples, args.seed)
    else:
        dataset = fashion_mnist(args.data_dir, local_rank)
    model = MLP().to(device)

    # Where do we start? Fresh, from --resume, or (after a fault) from torchrun's restart.
    path, ckpt = None, None
    if args.resume or restart > 0:
        path, ckpt = load_newest_checkpoint(ckpt_dir, log)
        if ckpt is None and args.resume:
            raise UsageError(
                f"--resume: no checkpoint in {ckpt_dir}. Run without --resume to start from "
                "scratch, or point --checkpoint-dir at the run to continue."
            )
        if ckpt is None:
            log(f"restart {restart}: no checkpoint yet, starting from scratch")
    elif not args.dry_run and list_checkpoints(ckpt_dir):
        raise UsageError(
            f"{ckpt_dir} already holds checkpoints ({list_checkpoints(ckpt_dir)[0].name}). "
            "Pass --resume to continue that run, or choose another --checkpoint-dir (or "
            "delete this one) to start over."
        )
    start_epoch = 0
    if ckpt is not None:
        model.load_state_dict(ckpt["model"])
        start_epoch = ckpt["epoch"]
        changed = {k: (v, vars(args)[k]) for k, v in ckpt["config"].items() if vars(args)[k] != v}
        log(
            f"resuming from {path.name} (epoch {start_epoch} done)"
            + (f" after restart {restart}" if restart else "")
        )
        if changed:
            log(f"warning: settings differ from the checkpoint's (was, now): {changed}")

    # DDP: on backward, gradients are averaged over ranks (all-reduce) in buckets while the
    # backward pass still runs, so that communication overlaps computation.
    ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=args.lr, momentum=0.9)
    amp_dtype = AMP_DTYPES[args.amp]
    # fp16 gradients can underflow to zero: the scaler multiplies the loss before backward
    # and divides the gradients back before the step. bf16 has fp32's range and needs none.
    scaler = torch.amp.GradScaler(device.type, enabled=args.amp == "fp16")
    if ckpt is not None:
        optimizer.load_state_dict(ckpt["optimizer"])
        scaler.load_state_dict(ckpt["scaler"])
        # Iterating a DataLoader draws a seed from the global RNG: without this, the resumed
        # run would continue from another random state than the uninterrupted one. Every rank
        # seeded and drew the same, so rank 0's states are everyone's (a script whose ranks
        # draw differently, e.g. dropout seeded per rank, gathers them with all_gather_object).
        set_rng_states(ckpt["rng"])

    # Each rank sees its own 1/world_size of every epoch. The shuffle depends only on the seed
    # and the epoch, not on the world size: rank r takes every world_size-th index, so the
    # union over ranks of step i's batches is the batch i of a 1-process run.
    sampler = DistributedSampler(
        dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed
    )
    # drop_last: equal batch sizes on every rank. With mean-reduced losses, the average of the
    # ranks' gradients then equals the gradient of the whole global batch.
    loader = DataLoader(dataset, batch_size=micro_batch, sampler=sampler, drop_last=True)
    steps_per_epoch = len(loader) // args.accumulate
    if steps_per_epoch == 0:
        raise UsageError(
            f"{len(dataset)} samples are fewer than one --batch-size {args.batch_size}"
        )
    if len(dataset) % args.batch_size:
        log(
            f"note: {len(dataset) % args.batch_size} samples per epoch do not fill a global "
            f"batch and are skipped"
        )
    log(
        f"global batch {args.batch_size} = {world_size} rank(s) x {args.accumulate} "
        f"accumulation step(s) x {micro_batch}; {steps_per_epoch} steps per epoch"
    )

    epochs = args.epochs
    if args.dry_run:
        epochs, steps_per_epoch = start_epoch + 1, min(steps_per_epoch, 2)
        log("dry run: one epoch of at most 2 steps, no checkpoint")
    step = start_epoch * steps_per_epoch
    for epoch in range(start_epoch, epochs):
        sampler.set_epoch(epoch)  # a new shuffle each epoch, the same one on every rank
        ddp_model.train()
        t0 = time.perf_counter()
        loss_sum = torch.zeros((), device=device)
        batches = iter(loader)
        for _ in range(steps_per_epoch):
            for k in range(args.accumulate):
                x, y = next(batches)
                x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
                # Only the last micro-batch's backward all-reduces; under no_sync the others
                # just add their gradients into .grad locally.
                last = k == args.accumulate - 1
                with contextlib.nullcontext() if last else ddp_model.no_sync():
                    # A no-op on CPU with --amp none; the forward must be inside no_sync too.
                    with torch.autocast(
                        device.type, dtype=amp_dtype, enabled=amp_dtype is not None
                    ):
                        loss = F.cross_entropy(ddp_model(x), y) / args.accumulate
                    scaler.scale(loss).backward()
                loss_sum += loss.detach()  # stays on the device: no sync point per step
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            maybe_inject_fault(step, rank, world_size)

        # The mean loss over all ranks: one all-reduce per epoch, and .item() is the one
        # CPU-GPU sync point of the epoch.
        dist.all_reduce(loss_sum)
        mean_loss = loss_sum.item() / (world_size * steps_per_epoch)
        seconds = time.perf_counter() - t0
        log(
            f"epoch {epoch + 1}/{epochs}  step {step}  loss {mean_loss:.4f}  "
            f"{steps_per_epoch * args.batch_size / seconds:,.0f} samples/s"
        )
        if args.dry_run:
            continue
        # Every rank has finished the epoch; the weights are the same on all of them, so
        # rank 0 alone writes (the others go on and wait for it in their next collective).
        dist.barrier()
        if rank == 0:
            ckpt_dir.mkdir(parents=True, exist_ok=True)
            save_checkpoint(
                ckpt_dir,
                epoch + 1,
                {
                    "epoch": epoch + 1,
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict(),
                    "rng": rng_states(),
                    "config": {k: vars(args)[k] for k in CONFIG_KEYS},
                },
            )

    # DDP's promise: every replica holds the same parameters. Check it: each rank hashes its
    # parameters and rank 0 compares the hashes (one all_gather_object, at the very end).
    local = hashlib.sha256()
    for p in model.parameters():
        local.update(p.detach().cpu().numpy().tobytes())
    digests = [None] * world_size
    dist.all_gather_object(digests, local.hexdigest())
    same = len(set(digests)) == 1
    log(f"parameters identical on all {world_size} ranks: {'yes' if same else 'NO'}")

    if rank == 0 and not args.dry_run:
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)
        _write_atomic(ckpt_dir / "final.pt", buf.getvalue())
        log(f"final parameters in {ckpt_dir / 'final.pt'}")  # torch.load(..., weights_only=True)


def exit_now(code):
    """Leave without Python's interpreter teardown.

    After DDP on gloo, gloo's worker threads outlive destroy_process_group() (seen with torch
    2.14), and one of them may still be releasing the last collective when the interpreter
    shuts down. It then needs the GIL, cannot have it, and the
    process dies with SIGABRT ("terminate called without an active exception") after a run
    that went well: a few runs in a hundred on a busy machine (pytorch/pytorch#179291). Our
    files are written and fsynced, the process group is destroyed: nothing is left to do but
    flush the output.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    try:
        main()
    except (UsageError, CheckpointError) as e:
        # Every rank meets the same problem; rank 0 says it, all exit non-zero.
        if os.environ.get("RANK", "0") == "0":
            print(f"train_ddp.py: error: {e}", file=sys.stderr, flush=True)
        exit_now(2 if isinstance(e, UsageError) else 1)
    exit_now(0)
