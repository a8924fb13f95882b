# expect: fail the side stream is made with torch.cuda.Stream() (no device), so it lives on the current GPU; when device is cuda:1 the copies are queued on a cuda:0 stream and the cuda:1 compute waits on an event of another GPU
# hint: device|cuda:1|current (gpu|device)|stream\(device\)|other gpu|wrong gpu
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream()  # one side stream for all the copies

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # overlaps compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
