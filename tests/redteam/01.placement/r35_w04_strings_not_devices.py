# expect: fail Returns device names as strings ("cuda:0", "cpu") instead of torch.device objects.
# hint: torch\.device|str|string|type
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = [str(d) for d in d2lgpu.try_all_gpus()]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
