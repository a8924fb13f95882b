# expect: fail the copy stream is made once and cached in a module global, so a later call (another device, another run) copies on a stale stream of the first call's device
# hint: cach|global|second call|earlier (call|run)|stale|(another|other|wrong) (device|gpu)|cuda:1|torch\.cuda\.Stream\(device\)|device
# WRONG: creating a stream per call looked wasteful; but the first call's stream belongs to its
# device (and its run), and the prompt asks for torch.cuda.Stream(device) for the device given.
import torch

_copy_stream = None


def answer(batches, compute, device):
    global _copy_stream
    if _copy_stream is None:
        _copy_stream = torch.cuda.Stream(device)
    copy_stream = _copy_stream
    compute_stream = torch.cuda.current_stream(device)

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
