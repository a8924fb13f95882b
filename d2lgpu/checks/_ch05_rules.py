"""The ``05.ddp`` checker's rules on what each rank recorded (:mod:`._ch05_rank`): the
collectives the script called itself, the files it saved, how it left the process group,
and the backend and devices it chose for the GPUs the machine has.

Each rule raises :class:`CheckFailed` with a hint that names the mistake and its fix. A rank
that recorded nothing (``{}``) is left out.

What it is not: the comparison of the trained parameters (:mod:`._ch05_reference`).
"""

from __future__ import annotations

from pathlib import Path

from ._util import CheckFailed

__all__ = [
    "check_backend",
    "check_leaving",
    "check_own_collectives",
    "check_saves",
    "check_shares",
    "drift_hint",
]


def check_own_collectives(records, params: int) -> None:
    """The collectives the script called itself (DDP's own are not among them): together
    less than the model's ``params`` bytes on each rank (a loss all-reduced for printing is
    fine). The hint names what was sent: gradients averaged again, or parameters broadcast."""
    for rank, record in enumerate(records):
        calls = [  # a DDP communication hook's own collectives are DDP's averaging
            c for c in record.get("calls", [])
            if c["kind"] != "barrier" and c.get("phase") != "comm hook"
        ]  # fmt: skip
        sent = sum(c["nbytes"] for c in calls)
        if sent < params:
            continue
        by_kind: dict[str, int] = {}
        for c in calls:
            by_kind[c["kind"]] = by_kind.get(c["kind"], 0) + c["nbytes"]
        kinds = ", ".join(sorted(by_kind))
        most = max(by_kind, key=lambda k: by_kind[k])
        if record.get("devices") == []:  # recorded, and DDP wrapped nothing
            raise CheckFailed(
                f"rank {rank} of the script called {len(calls)} collective"
                f"{'s' * (len(calls) != 1)} itself ({kinds}: {sent} bytes; the model's "
                f"parameters take {params}) and never wrapped the model in "
                "DistributedDataParallel: the exercise asks for DDP, whose backward averages "
                "the gradients bucket by bucket while backward still runs. Wrap the model "
                "(net = DDP(model)), train through the wrapper, and send nothing yourself"
            )
        if most == "all_reduce":
            why = (
                "DDP's backward already averages the gradients, so averaging them again by "
                "hand (dist.all_reduce on each p.grad) sends every gradient twice for the same "
                "values"
            )
        elif most in ("broadcast", "broadcast_object_list"):
            why = (
                f"The script sent parameters with dist.{most} itself: DDP's constructor "
                "already broadcasts rank 0's weights once, and since every rank then steps "
                "with the same averaged gradients, the replicas stay equal without another "
                "broadcast. Let every rank call opt.step() and send nothing yourself"
            )
        else:
            why = (
                f"DDP keeps the replicas equal by itself (its backward averages the "
                f"gradients), so the script's own dist.{most} of a model's worth of bytes is "
                "traffic DDP does not need"
            )
        raise CheckFailed(
            f"besides DDP's own all-reduces, rank {rank} of the script called {len(calls)} "
            f"collective{'s' * (len(calls) != 1)} itself ({kinds}: {sent} bytes; the "
            f"model's parameters take {params}): an extra collective. {why}. Leave it to DDP"
        )


def check_saves(records, out: Path) -> None:
    """Only rank 0 writes the checkpoint: no other rank saved a file next to ``--out``."""
    folder = Path(out).resolve().parent
    for rank, record in enumerate(records):
        mine = [Path(f) for f in record.get("saves", []) if Path(f).resolve().parent == folder]
        if rank > 0 and mine:
            raise CheckFailed(
                f"rank {rank} also saved the checkpoint (torch.save to {mine[0].name}): every "
                "rank wrote the same file at once, and writes that race each other can leave "
                "it torn or half-written. Save on rank 0 only (if rank == 0: "
                "torch.save(model.state_dict(), args.out)); the other ranks go on to "
                "dist.barrier()"
            )


def check_leaving(records) -> None:
    """Every rank meets the others at ``dist.barrier()`` and then calls
    ``dist.destroy_process_group()``, as the exercise asks."""
    for rank, record in enumerate(records):
        if not record or record.get("ended", {}).get("how") != "returned":
            continue
        barriers = sum(c["kind"] == "barrier" for c in record.get("calls", []))
        if not record.get("destroyed"):
            also = "" if barriers else " (nor dist.barrier() before it)"
            raise CheckFailed(
                f"rank {rank} never called dist.destroy_process_group(){also}: the process "
                "group is left to be torn down at exit, rank by rank. After rank 0's save, let "
                "all ranks meet at dist.barrier() and leave the group together with "
                "dist.destroy_process_group(), as the exercise asks"
            )
        if not barriers:
            raise CheckFailed(
                f"rank {rank} called dist.destroy_process_group() without dist.barrier() "
                "before it: a rank may leave while another still saves or waits. Let all "
                "ranks meet at dist.barrier() after rank 0's save, then leave the group"
            )
        if record.get("saves") and record.get("barriers_at_save") == barriers:
            raise CheckFailed(
                f"rank {rank} saved the checkpoint after its last dist.barrier(): the other "
                "ranks passed the barrier and left while the save was still being written, "
                "so the barrier waits for nothing. Save first (if rank == 0: torch.save(...)), "
                "then let all ranks meet at dist.barrier() and leave the group"
            )


def check_backend(records) -> None:
    """Gloo ranks stay on the CPU, and every process having a GPU of its own means nccl (a
    rank's ``backend``, the ``gpus`` it saw and the ``devices`` of what DDP wrapped): on a
    machine without a GPU neither can be seen."""
    nproc = len(records)
    for rank, record in enumerate(records):
        backend, devices = record.get("backend"), record.get("devices", [])
        gpus = record.get("gpus", 0)
        on_gpu = [d for d in devices if d.startswith("cuda")]
        if backend == "gloo" and on_gpu:
            raise CheckFailed(
                f"rank {rank} joined with gloo but put the model on {on_gpu[0]}: with fewer "
                f"GPUs ({gpus}) than processes ({nproc}) the ranks would share a GPU. Under "
                "gloo keep every rank on the CPU (device = torch.device('cpu')); cuda:LOCAL_RANK "
                "is for nccl, when every process has a GPU of its own"
            )
        if backend == "gloo" and gpus >= nproc > 0:
            raise CheckFailed(
                f"rank {rank} joined with gloo although every process has a GPU of its own "
                f"({gpus} GPU{'s' * (gpus != 1)}, {nproc} process{'es' * (nproc != 1)}): "
                "choose the backend from the machine, "
                "'nccl' when torch.cuda.device_count() >= LOCAL_WORLD_SIZE, else 'gloo', and "
                "under nccl put each rank on cuda:LOCAL_RANK"
            )


def drift_hint(records, out: Path) -> str | None:
    """Why the parameters drifted, where a rank recorded it: --out read before training (an
    older run's file taken as a start), or a communication hook that changes the gradients."""
    for rank, record in enumerate(records):
        if str(out) in record.get("loads", []):
            return (
                f"rank {rank} loaded --out ({out.name}) with torch.load: a file was already "
                "there (an older run's, as here), and the script started from it instead of "
                "make_model(args.seed). --out is where the trained model goes; train from the "
                "model the script builds, and overwrite the file"
            )
        if hooks := record.get("comm_hooks"):
            return (
                f"rank {rank} registered a DDP communication hook ({', '.join(hooks)}): it "
                "changes what the all-reduce sends or makes of it (fp16_compress_hook, for one, "
                "rounds every gradient to float16), and the parameters drift from single-process "
                "training. Leave DDP's all-reduce as it is: the exercise asks for the same "
                "training, split"
            )
    return None


def check_shares(records, examples: int) -> None:
    """Each rank's forwards got about its share of the ``examples`` (all epochs together): a
    rank that ran them all did every other rank's work too."""
    nproc = len(records)
    for rank, record in enumerate(records):
        rows = record.get("rows", 0)
        if rows > 1.5 * examples / nproc:
            raise CheckFailed(
                f"rank {rank}'s model ran {rows} examples, where its share of the "
                f"{examples} (all epochs) is {examples // nproc}: every rank computed the "
                "whole batch (a sampler of num_replicas=1, or no DistributedSampler), so "
                f"{nproc} ranks did the same work {nproc} times over. Give each rank its share: "
                "DistributedSampler(dataset, shuffle=True, seed=args.seed) and a per-rank batch "
                "of batch_size // world_size"
            )
