# expect: pass orders with wait_stream (taken right after copy i is queued, before copy i + 1), keeps the device tensors referenced and makes the copy stream wait for the compute stream before returning, instead of record_stream
# hint:
# name: pipelined
import torch


def pipelined(batches, compute, device):
    if not batches:
        return []
    main = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    side.wait_stream(main)
    on_device = []  # references kept until the copy stream is told to wait

    def queue_copy(i):
        with torch.cuda.stream(side):
            on_device.append(batches[i].to(device, non_blocking=True))

    queue_copy(0)
    out = []
    for i in range(len(batches)):
        main.wait_stream(side)  # covers the copies queued so far: up to batch i
        if i + 1 < len(batches):
            queue_copy(i + 1)  # runs during compute i
        out.append(compute(on_device[i]))
    side.wait_stream(main)  # the copy stream's memory is reused only after the computes
    return out
