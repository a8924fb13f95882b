# expect: fail record_stream(torch.cuda.current_stream()) without the device: on cuda:1 it names the current GPU's stream, not the compute stream
# hint: current (gpu|device)|cuda:1|name.{0,30}device|without.{0,20}device|current_stream\(\)|another (gpu|device)
# Wrong: every other call names `device`, but record_stream gets torch.cuda.current_stream(),
# which means the current GPU (cuda:0); the prompt says to name the device in torch.cuda's calls.
import torch


def _send(batch, copy_stream, device):
    with torch.cuda.stream(copy_stream):
        x = batch.to(device, non_blocking=True)
        return x, copy_stream.record_event()


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results, ahead = [], _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
        compute_stream.wait_event(copied)
        x.record_stream(torch.cuda.current_stream())  # the compute stream... of the current GPU
        results.append(compute(x))
    return results


answer = pipelined
