# expect: fail torch.cuda.Stream() and torch.cuda.current_stream() are called without the device, so they mean the current GPU (cuda:0) when the given device is cuda:1
# hint: cuda:1|current gpu|current device|name the device|Stream\(device\)|current_stream\(device\)
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream()
    copy_stream = torch.cuda.Stream()

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


answer = pipelined
