# expect: fail sets CUDA_VISIBLE_DEVICES to the GPUs it uses and leaves it set, changing the process environment
# hint: CUDA_VISIBLE_DEVICES|environment|env|os\.environ|process.wide|put back|restore|changed|left
import os

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    gpus = [d.index for d in devices if d.type == "cuda"]
    # make sure the workers' processes see every GPU in use
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(i) for i in gpus)
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
