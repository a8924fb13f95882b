# expect: fail reads "keeps every GPU busy" as "always use every GPU": with fewer workers than GPUs (2 workers on 3 GPUs, 0 or 1 worker on 2) it returns one device per GPU, more than n_workers entries.
# hint: (too (many|long)|more than|length|len\(|fewer workers|n_workers (devices|entries)|one (device )?per worker|expected \d+ devices?|extra)
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if devices[0].type == "cpu":
        return devices * n_workers
    slots = max(n_workers, len(devices))  # never leave a GPU idle
    return [devices[i % len(devices)] for i in range(slots)]


answer = place_workers
