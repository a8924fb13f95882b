# expect: fail set_stream back to the default stream, not the caller's current stream
# hint: current stream|default stream|set_stream|restore|caller
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        torch.cuda.set_stream(copy_stream)
        x = batch.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record(copy_stream)
        torch.cuda.set_stream(torch.cuda.default_stream(device))  # back to normal
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
