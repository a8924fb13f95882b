# expect: fail event recorded on the current (compute) stream instead of the copy stream, so the compute waits for nothing
# hint: event.*(copy|side) stream|recorded on|wrong stream|wait_event|wait for (its|the) copy|before (its|the) copy|copy.*(landed|finished|ended)|stale|read.*before
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
        done = torch.cuda.Event()
        done.record()  # marks the end of the copy
        return x, done

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, done = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(done)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
