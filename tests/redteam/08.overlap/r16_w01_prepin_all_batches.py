# expect: fail calls pin_memory() on every batch before the loop
# hint: pin_memory|pinn?ed|pin
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    # make sure every batch is page-locked, once, before the loop (as the chapter's
    # pinned_batches cell does), so that non_blocking copies really are asynchronous
    batches = [b.pin_memory() for b in batches]
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
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
