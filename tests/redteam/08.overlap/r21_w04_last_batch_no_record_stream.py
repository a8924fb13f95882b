# expect: fail record_stream is called only when another copy follows: the last batch's device tensor (from the copy stream's pool) is freed on return while its compute may still read it
# hint: record_stream|last batch|freed|reuse|still read|memory|final
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
        more = i + 1 < len(batches)
        if more:
            ahead = send(batches[i + 1])
            # only a later copy could reuse x's memory, so only then protect it
            x.record_stream(compute_stream)
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results
