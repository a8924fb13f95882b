# expect: pass Uses compute_stream.wait_stream(copy_stream) before the next copy is queued (so it covers copy i only), keeps references to the device batches instead of record_stream, and before returning makes the copy stream wait for the compute stream.
# hint: 
# name: pipelined
import torch


class _Pipeline:
    def __init__(self, device):
        self.device = device
        self.compute_stream = torch.cuda.current_stream(device)
        self.copy_stream = torch.cuda.Stream(device)
        self.kept = []  # device batches, alive until the computes are ordered before reuse

    def prefetch(self, batch):
        with torch.cuda.stream(self.copy_stream):
            self.kept.append(batch.to(self.device, non_blocking=True))

    def run(self, batches, compute):
        self.prefetch(batches[0])
        results = []
        for i in range(len(batches)):
            # only copies 0..i are queued on the copy stream at this point
            self.compute_stream.wait_stream(self.copy_stream)
            if i + 1 < len(batches):
                self.prefetch(batches[i + 1])  # runs while compute i runs
            results.append(compute(self.kept[i]))
        # the copy stream's pool owns the batches: later work there starts after the computes
        self.copy_stream.wait_stream(self.compute_stream)
        return results


def pipelined(batches, compute, device):
    return _Pipeline(device).run(batches, compute)
