# expect: pass batch 0 copied on the current stream, later batches copy_()'d into tensors made on the side stream; a print of the batch count
# hint: 
import torch


def pipelined(batches, compute, device):
    """Batch 0 on the current stream (nothing to overlap with yet); batches 1.. on a side
    stream, each copied while the previous one is computed."""
    print(f"pipelining {len(batches)} batch(es) on {device}")
    main = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)

    def to_device_on_side(batch):
        with torch.cuda.stream(side):
            x = torch.empty(batch.shape, dtype=batch.dtype, device=device)  # side's pool
            x.copy_(batch, non_blocking=True)
            event = torch.cuda.Event()
            event.record()  # current stream here: side
        return x, event

    current = (batches[0].to(device, non_blocking=True), None)  # on main: no wait needed
    results = []
    for i in range(len(batches)):
        x, event = current
        if i + 1 < len(batches):
            current = to_device_on_side(batches[i + 1])
        if event is not None:
            main.wait_event(event)
            x.record_stream(main)
        results.append(compute(x))
    return results


answer = pipelined
