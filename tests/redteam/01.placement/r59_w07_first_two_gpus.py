# expect: fail alternates between the first two GPUs only, leaving a third and later GPU idle
# hint: every gpu|all (the )?gpus|idle|unused|busy|evenly|3 gpus|three|cuda:2|round.robin
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if len(devices) == 1:
        return [devices[0]] * n_workers
    # several GPUs: alternate even and odd workers
    return [devices[i % 2] for i in range(n_workers)]


answer = place_workers
