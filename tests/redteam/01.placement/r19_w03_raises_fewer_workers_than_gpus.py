# expect: fail raises ValueError when there are fewer workers than GPUs instead of placing them on the first GPUs
# hint: fewer|raise|ValueError|error|exception|less than|more gpus than|n_workers\s*<
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if n_workers < len(devices):
        raise ValueError(
            f"{n_workers} worker(s) cannot keep {len(devices)} devices busy; use at least {len(devices)}"
        )
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
