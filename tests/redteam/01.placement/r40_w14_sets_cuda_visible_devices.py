# expect: fail sets CUDA_VISIBLE_DEVICES in os.environ to the GPUs it found and leaves it set
# hint: (environ|environment|CUDA_VISIBLE_DEVICES|variable|process.?wide|global|put back|restore)
# name: place_workers
import os

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    if devices[0].type == "cuda":  # tell the workers which GPUs they may use
        os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(d.index) for d in devices)
    return [devices[i % len(devices)] for i in range(n_workers)]
