# expect: fail builds every device as torch.device(kind, index), so without a GPU it returns cpu:0, which is not equal to cpu
# hint: cpu:0|index|\bcpu\b|no GPU|0 GPUs?
import torch

import d2lgpu


def place_workers(n_workers):
    """One formula for every machine: torch.device(kind, i % count)."""
    count = d2lgpu.num_gpus()
    kind = "cuda" if count else "cpu"
    slots = max(count, 1)
    return [torch.device(kind, i % slots) for i in range(n_workers)]


answer = place_workers
