# expect: fail calls torch.cuda.set_device(device) at the start and never restores it: after the call the caller's current GPU is the one given (cuda:1), so the caller's later unqualified CUDA work goes to the wrong GPU; shows when device is not the current GPU
# hint: set_device|current (gpu|device)|restor|global|side effect|changed
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    torch.cuda.set_device(device)  # make sure everything below runs on the GPU we were given
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
