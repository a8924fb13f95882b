# expect: pass returns a tuple of torch.devices, values and order right: the checker takes a sequence (as it takes r3_c02_accelerator_tuple); the prompt's table and its demo cell only index, iterate and count it
# hint: 
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))  # immutable: safer to share


answer = place_workers
