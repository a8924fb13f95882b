# expect: fail torch.cuda.Stream() and torch.cuda.current_stream() are called without the device: they mean the current GPU, not the device given (e.g. cuda:1), so copies and waits land on the wrong GPU's streams
# hint: device|cuda:1|current GPU|current_stream\(device|Stream\(device|name
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream()
    copy_stream = torch.cuda.Stream()

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
