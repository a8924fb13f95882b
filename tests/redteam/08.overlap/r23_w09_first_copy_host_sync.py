# expect: fail the host synchronizes on batch 0's copy event before the loop ("nothing to overlap with yet"): a host wait before the last compute is queued, which the prompt forbids; it costs one copy of idle queueing every call
# hint: synchroni|host wait|event\.synchronize|first (copy|batch)|batch 0|before the loop
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    ahead[1].synchronize()  # the first batch must be there before anything can start
    results = []
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
