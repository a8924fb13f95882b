# expect: fail the wait is put on torch.cuda.default_stream(), not the current stream the computes run on (breaks under a caller's stream)
# hint: current stream|current_stream|default.?stream|caller.?s stream|stream of its own|not the default
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    main = torch.cuda.default_stream(device)  # where the computes go
    side = torch.cuda.Stream(device)
    results = []

    def copy(batch):
        with torch.cuda.stream(side):
            x = batch.to(device, non_blocking=True)
            ready = torch.cuda.Event()
            ready.record(side)
        return x, ready

    nxt = copy(batches[0])
    for i in range(len(batches)):
        x, ready = nxt
        if i + 1 < len(batches):
            nxt = copy(batches[i + 1])
        main.wait_event(ready)
        x.record_stream(main)
        results.append(compute(x))
    return results


answer = pipelined
