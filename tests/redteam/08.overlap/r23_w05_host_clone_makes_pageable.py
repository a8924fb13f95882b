# expect: fail each batch is cloned on the host before its copy "to leave the caller's tensor alone": the clone is pageable memory, so every copy is a host copy plus a non_blocking copy from pageable memory that holds the host, and the overlap is lost
# hint: clone|pageable|pinned|not pinned|host copy|is_pinned
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        src = batch.detach().clone()  # our own copy: the caller may reuse its batch
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
