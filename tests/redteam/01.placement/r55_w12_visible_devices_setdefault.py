# expect: fail sets CUDA_VISIBLE_DEVICES with os.environ.setdefault for the workers to inherit, changing the environment wherever it was unset
# hint: environ|environment|CUDA_VISIBLE_DEVICES|variable
import os

import d2lgpu


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); child workers inherit the GPUs we chose."""
    devices = d2lgpu.try_all_gpus()
    placed = [devices[i % len(devices)] for i in range(n_workers)]
    used = sorted({d.index for d in placed if d.type == "cuda"})
    # only fill it in when the launcher did not: "never override the user's choice"
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", ",".join(map(str, used)))
    return placed


answer = place_workers
