"""What train_ddp.py needs that is not about DDP: its command line, the checks of its
numbers, and its data sets. It sits beside the script, which imports it (like the datautils.py
of pytorch/examples' DDP series), so that train_ddp.py reads as the DDP lesson alone.
"""

import argparse
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch.utils.data import TensorDataset

from d2lgpu.distributed import TORCHRUN_VARS
from d2lgpu.training_checkpoints import list_checkpoints, load_newest_checkpoint

AMP_DTYPES = {"none": None, "bf16": torch.bfloat16, "fp16": torch.float16}
# Settings stored with each checkpoint; a resume with other values says so.
CONFIG_KEYS = ("seed", "batch_size", "lr", "data", "samples", "amp", "accumulate")


class UsageError(Exception):
    """A problem with how the script was called; the message says what to do."""


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    pass


def parse_args(argv=None, description=__doc__):
    p = argparse.ArgumentParser(
        prog="train_ddp.py", description=description, formatter_class=_Formatter
    )
    _add_training_args(p)
    _add_run_args(p)
    return p.parse_args(argv)


def _add_training_args(parser):
    """The flags of what is trained: epochs, batch, data, precision."""
    add = parser.add_argument
    add("--epochs", type=int, default=3, help="passes over the training data")
    add(
        "--batch-size",
        type=int,
        default=64,
        help="global batch: divided among the ranks (and the --accumulate steps)",
    )
    add("--lr", type=float, default=0.05, help="SGD learning rate (momentum 0.9)")
    add("--seed", type=int, default=0, help="seeds the data, the model and the shuffle")
    add(
        "--data",
        choices=("synthetic", "fashion-mnist"),
        default="synthetic",
        help="synthetic: made from --seed, the same on every rank, no download",
    )
    add("--samples", type=int, default=1024, help="size of the synthetic data set")
    add("--data-dir", default="data", help="where FashionMNIST is (or is downloaded)")
    add(
        "--amp",
        choices=tuple(AMP_DTYPES),
        default="none",
        help="autocast dtype; fp16 also uses a GradScaler",
    )
    add(
        "--accumulate",
        type=int,
        default=1,
        metavar="K",
        help="micro-batches per optimizer step; DDP syncs only on the last (no_sync)",
    )


def _add_run_args(parser):
    """The flags of how it runs: backend, threads, checkpoints, time limit."""
    add = parser.add_argument
    add(
        "--backend",
        choices=("auto", "nccl", "gloo"),
        default="auto",
        help="auto: nccl when every local rank has its own GPU, else gloo",
    )
    add("--threads", type=int, default=1, help="CPU threads per process (torch.set_num_threads)")
    add(
        "--checkpoint-dir",
        default="checkpoints/train_ddp",
        help="checkpoints after every epoch, and final.pt at the end",
    )
    add(
        "--resume",
        action="store_true",
        help="continue from the newest intact checkpoint in --checkpoint-dir",
    )
    add(
        "--dry-run",
        action="store_true",
        help="one epoch of at most 2 steps, writes nothing: checks the set-up",
    )
    add(
        "--timeout-s",
        type=float,
        default=300,
        help="how long a collective waits for the other ranks before failing",
    )


def micro_batch_size(args, world_size):
    """Check the numbers; return each rank's batch for one micro-batch."""
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
    return micro_batch


def synthetic_dataset(samples, seed):
    """28x28 "images" labelled by a random linear teacher: learnable, and identical on every
    rank because they come from a generator seeded with --seed, not from the global RNG."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(samples, 1, 28, 28, generator=g)
    teacher = torch.randn(28 * 28, 10, generator=g)
    return TensorDataset(x, (x.flatten(1) @ teacher).argmax(dim=1))


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


def backend_note(backend, requested, local_world_size, gpus, log):
    """Why this backend, in a few words; warns when --backend nccl cannot be had."""
    if backend == "nccl":
        return f"{gpus} GPU(s) for {local_world_size} process(es) per machine"
    if requested == "gloo":
        return "asked for with --backend gloo"
    why = f"{local_world_size} process(es) per machine but {gpus} GPU(s)"
    if requested == "nccl":
        log(
            f"warning: --backend nccl needs one GPU per process and there are {why}: "
            "falling back to gloo"
        )
    return why


def warn_if_restarts_share_the_store(log):
    if int(os.environ.get("TORCHELASTIC_MAX_RESTARTS", "0")) > 0 and (
        os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True"
    ):
        log(
            "warning: with --max-restarts, export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 before "
            "torchrun: a restarted rank can otherwise read the previous attempt's addresses "
            "from the store torchrun shares, and fail to connect (pytorch/pytorch#135712)"
        )


def exit_now(code):
    """Leave without Python's interpreter teardown.

    After DDP on gloo, gloo's worker threads outlive destroy_process_group() (seen with torch
    2.14), and one of them may still be releasing the last collective when the interpreter
    shuts down. It then needs the GIL, cannot have it, and the process dies with SIGABRT
    ("terminate called without an active exception") after a run that went well: a few runs
    in a hundred on a busy machine (pytorch/pytorch#179291). Our files are written and
    fsynced, the process group is destroyed: nothing is left to do but flush the output.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def require_torchrun(environ):
    """Raise UsageError, saying how to launch the script, unless torchrun started it."""
    missing = [v for v in TORCHRUN_VARS if v not in environ]
    if missing:
        raise UsageError(
            f"not started by torchrun ({', '.join(missing)} not set). Launch it with torchrun, "
            "for example:\n"
            "    torchrun --standalone --nproc-per-node=2 scripts/train_ddp.py --epochs 3\n"
            "(see --help for several machines and Slurm)"
        )


def find_checkpoint(args, restart, log):
    """The checkpoint to continue from, or None to start fresh; refuses to overwrite a run."""
    ckpt_dir = Path(args.checkpoint_dir)
    if not (args.resume or restart > 0):
        if not args.dry_run and list_checkpoints(ckpt_dir):
            raise UsageError(
                f"{ckpt_dir} already holds checkpoints ({list_checkpoints(ckpt_dir)[0].name}). "
                "Pass --resume to continue that run, or choose another --checkpoint-dir (or "
                "delete this one) to start over."
            )
        return None
    path, ckpt = load_newest_checkpoint(ckpt_dir, log)
    if ckpt is None and args.resume:
        raise UsageError(
            f"--resume: no checkpoint in {ckpt_dir}. Run without --resume to start from "
            "scratch, or point --checkpoint-dir at the run to continue."
        )
    if ckpt is None:
        log(f"restart {restart}: no checkpoint yet, starting from scratch")
        return None
    log(
        f"resuming from {path.name} (epoch {ckpt['epoch']} done)"
        + (f" after restart {restart}" if restart else "")
    )
    changed = {k: (v, vars(args)[k]) for k, v in ckpt["config"].items() if vars(args)[k] != v}
    if changed:
        log(f"warning: settings differ from the checkpoint's (was, now): {changed}")
    return ckpt


def steps_per_epoch(samples, micro_batches, args, log):
    """Optimizer steps per epoch; an error when the data set does not fill one global batch."""
    steps = micro_batches // args.accumulate
    if steps == 0:
        raise UsageError(f"{samples} samples are fewer than one --batch-size {args.batch_size}")
    if samples % args.batch_size:
        log(
            f"note: {samples % args.batch_size} samples per epoch do not fill a global "
            "batch and are skipped"
        )
    return steps
