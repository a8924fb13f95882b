# expect: fail Takes the compute stream with torch.cuda.current_stream() without the device, which is the current GPU's stream; with device cuda:1 (not the current GPU) the waits are put on the wrong GPU's stream and the computes never wait for their copies.
# hint: current_stream\(device\)|device|cuda:1|name it|current GPU
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream()  # the current GPU's, not device's
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
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
