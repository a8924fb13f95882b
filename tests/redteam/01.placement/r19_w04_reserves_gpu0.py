# expect: fail with several GPUs it keeps cuda:0 for the main process and spreads workers over the others only
# hint: cuda:0|gpu 0|first gpu|reserv|skip|every gpu|unused|idle|busy
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if len(devices) > 1:
        devices = devices[1:]  # GPU 0 is busy with the main process
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
