# expect: pass Copies batch 0 on the current stream (nothing to overlap with), later batches on a side stream with explicitly created Events recorded on it and waited with event.wait(compute_stream), plus record_stream.
# hint: 
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)

    def stage(batch):
        """Queue batch's copy on the side stream; the device tensor and a marker after the copy."""
        with torch.cuda.stream(side):
            on_device = batch.to(device, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(side)
        return on_device, landed

    # batch 0 on the current stream: it is ordered before compute 0 by the stream itself
    current = (batches[0].to(device, non_blocking=True), None)
    results = []
    for i in range(len(batches)):
        x, landed = current
        if i + 1 < len(batches):
            current = stage(batches[i + 1])  # queued before compute i: runs during it
        if landed is not None:
            landed.wait(compute_stream)  # the GPU waits, not the host
            x.record_stream(compute_stream)
        results.append(compute(x))
    return results
