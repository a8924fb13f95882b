"""Run several 05.ddp answer scripts one after another in the processes of one torchrun launch.

    torchrun --nproc-per-node=2 run_variants.py --epochs=3 ... -- a.py a.pt b.py b.pt ...

Each script runs as ``__main__`` with the options before ``--`` and ``--out=`` its own file,
exactly as the checker launches it, except that the process group is made once: the first
script's ``dist.init_process_group`` makes it, the later ones find it made, and no script's
``dist.destroy_process_group`` tears it down until the last has run. One launch instead of
one per script: each launch costs seconds of CPU to start torchrun and import torch.
"""

import runpy
import sys

import torch.distributed as dist

split = sys.argv.index("--")
options, names = sys.argv[1:split], sys.argv[split + 1 :]
make_group, destroy_group = dist.init_process_group, dist.destroy_process_group


def init_once(*args, **kwargs):
    if not dist.is_initialized():
        make_group(*args, **kwargs)


dist.init_process_group = init_once
dist.destroy_process_group = lambda *args, **kwargs: None
for script, out in zip(names[::2], names[1::2], strict=True):
    sys.argv = [script, *options, f"--out={out}"]
    runpy.run_path(script, run_name="__main__")
    dist.barrier()  # every rank done with this script (rank 0 saved it) before the next
destroy_group()
