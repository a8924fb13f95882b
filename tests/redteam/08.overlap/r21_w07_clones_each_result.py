# expect: fail every result is cloned "so it does not alias the batch": an extra device copy per batch on the compute stream, and twice the result memory
# hint: clone|copy|extra|memory|cost
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x).clone())  # a result of our own, independent of x's memory
    return results
