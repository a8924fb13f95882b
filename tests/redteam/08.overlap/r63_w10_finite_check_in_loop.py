# expect: fail a NaN/inf guard on each result (bool of a device tensor) makes the host wait for every compute inside the loop
# hint: sync|host.{0,30}wait|item|bool|isfinite|nan|read.{0,30}(result|device)|in the loop
# WRONG: `if not torch.isfinite(y).all()` reads a device value on the host: a sync point each
# batch, before the next copy is queued, which serializes copy and compute (section 8.7).
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if not torch.isfinite(y).all():  # fail fast on a bad batch
            raise FloatingPointError(f"batch {i} gave a non-finite result")
        results.append(y)
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
    return results
