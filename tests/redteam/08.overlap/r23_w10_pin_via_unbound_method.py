# expect: fail calls torch.Tensor.pin_memory(batch) on every batch, the forbidden pin_memory() by another spelling: a no-op for these pinned batches, but a full host copy that holds the loop for pageable ones
# hint: pin_memory|pinned|pin
import torch

_pin = torch.Tensor.pin_memory  # make sure each batch is page-locked before an async copy


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        src = _pin(batch)
        with torch.cuda.stream(copy_stream):
            x = src.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
