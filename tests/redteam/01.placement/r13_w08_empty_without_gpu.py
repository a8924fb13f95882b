# expect: fail returns an empty list on a machine without GPUs (d2l's behaviour) instead of n_workers cpu devices
# hint: empty|\[\]|no GPU|0 GPUs|without (a )?GPU|cpu|never empty|len|length|n_workers (devices|entries)|one per worker
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    gpus = [d2lgpu.gpu(i) for i in range(d2lgpu.num_gpus())]
    if not gpus:
        return []  # nothing to place workers on
    return [gpus[i % len(gpus)] for i in range(n_workers)]


answer = place_workers
