# expect: fail torch.accelerator.current_accelerator() without check_available names cuda on a machine with no GPU
# hint: cpu|no GPU|0 GPU|zero GPU|check_available|accelerator|built
import torch


def place_workers(n_workers):
    """Device-generic: round-robin over torch.accelerator's devices."""
    kind = torch.accelerator.current_accelerator() or torch.device("cpu")
    n = max(1, torch.accelerator.device_count())
    if kind.type == "cpu":
        return [torch.device("cpu")] * n_workers
    return [torch.device(kind.type, i % n) for i in range(n_workers)]


answer = place_workers
