# expect: fail the returned list is one module-level list, cleared and refilled on every call: each call's results are right, but a later call empties and overwrites the list an earlier caller still holds
# hint: global|module|between calls|same list|shared|clear|previous (call|result)|state
import torch

_results = []  # reused so every call does not build a new list


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    _results.clear()

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        _results.append(compute(x))
    return _results
