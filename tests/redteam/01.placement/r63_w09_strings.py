# expect: fail returns device names as strings ("cuda:0") instead of torch.device objects
# hint: str|string|torch\.device|type|not a device
# Wrong: the prompt asks for torch.devices; "cuda:0" != torch.device("cuda:0"), and str has no
# .type or .index. The placement itself (order, count) is right.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [str(devices[i % len(devices)]) for i in range(n_workers)]


answer = place_workers
