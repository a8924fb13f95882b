# expect: fail a NaN guard on each result in the loop (`if not torch.isfinite(y).all()`) reads a device value on the host: a sync point each batch
# hint: \.item|bool|synchroni[sz]|sync point|host (waits?|waited|reads?)|isfinite|isnan|\bnan\b|non-?finite
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if not torch.isfinite(y).all():  # fail fast on a bad batch, as in a training loop
            raise FloatingPointError(f"batch {i}: non-finite result")
        results.append(y)
    return results
