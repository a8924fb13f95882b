# expect: fail torch.cuda.Stream() and current_stream() are called without the device, so with device cuda:1 they mean the current GPU (cuda:0)
# hint: device|cuda:1|current (gpu|device)|cuda:0|name.{0,20}device|torch\.cuda\.Stream\(device\)|current_stream\(device\)
# WRONG: the tensors go to the device given, but the streams belong to the current GPU: on a
# machine whose current GPU is not `device`, the copies and waits are on another GPU's queues.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream()
    copy_stream = torch.cuda.Stream()

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
