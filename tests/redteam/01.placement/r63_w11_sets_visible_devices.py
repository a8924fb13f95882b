# expect: fail sets CUDA_VISIBLE_DEVICES in os.environ and never puts it back
# hint: CUDA_VISIBLE_DEVICES|environ|environment|variable|process.?wide|put (it )?back|restor|left .*changed|changed
# Wrong: the placement is right, but the exercise says to put back any process-wide setting you
# change, an environment variable included; this one is left set for the caller's process.
import os

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    # let the worker processes we start see exactly the GPUs in use
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(d.index) for d in devices if d.type == "cuda")
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
