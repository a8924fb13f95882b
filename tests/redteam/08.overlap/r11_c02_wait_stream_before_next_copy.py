# expect: pass
# hint:
# name: pipelined
import torch


def pipelined(batches, compute, device):
    n = len(batches)
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device = [None] * n

    def copy(i):
        with torch.cuda.stream(copy_stream):
            on_device[i] = batches[i].to(device, non_blocking=True)

    results = []
    if n:
        copy(0)
    for i in range(n):
        # everything queued on the copy stream so far is copies 0..i: wait for them on the GPU,
        # before the next copy is queued, so compute i does not wait for copy i + 1
        compute_stream.wait_stream(copy_stream)
        if i + 1 < n:
            copy(i + 1)
        x, on_device[i] = on_device[i], None
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
