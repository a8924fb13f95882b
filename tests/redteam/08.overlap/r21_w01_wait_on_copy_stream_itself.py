# expect: fail the compute stream is looked up inside the side-stream block, so wait_event is queued on the copy stream itself (a no-op) and the computes never wait for their copies
# hint: wait|current stream|copy stream|same stream|race|before the copy|not wait
import torch


def _send(batch, copy_stream, device):
    with torch.cuda.stream(copy_stream):
        x = batch.to(device, non_blocking=True)
        done = copy_stream.record_event()
        # the stream that will compute on x must wait for this copy
        waiter = torch.cuda.current_stream(device)
        return x, done, waiter


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    copy_stream = torch.cuda.Stream(device)
    compute_stream = torch.cuda.current_stream(device)
    results, ahead = [], _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, done, waiter = ahead
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
        waiter.wait_event(done)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
