# expect: fail repeats the device list n_workers // len(devices) times, dropping the remainder: with 2 or 3 GPUs and a worker count that is not a multiple of the GPU count (5 workers on 2 GPUs) the list is too short, and with fewer workers than GPUs it is empty.
# hint: (too short|fewer than|length|len\(|remainder|leftover|missing workers?|expected \d+ devices?|n_workers devices|one (device )?per worker|not a multiple|empty)
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    rounds = n_workers // len(devices)  # full rounds over the GPUs
    return devices * rounds


answer = place_workers
