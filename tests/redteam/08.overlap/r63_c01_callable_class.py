# expect: pass
# hint:
# RIGHT: a callable class instance. Copy stream per call on the given device, copy i + 1 queued
# before compute i, the compute stream waits on the GPU (wait_stream), record_stream for each x.
import torch


class _Pipeline:
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""

    def _send(self, batch, copy_stream, device):
        with torch.cuda.stream(copy_stream):
            return batch.to(device, non_blocking=True)

    def __call__(self, batches, compute, device):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)
        results = []
        nxt = self._send(batches[0], copy_stream, device)
        for i in range(len(batches)):
            x = nxt
            # everything queued on copy_stream so far is copy i: wait for it before queueing i + 1
            compute_stream.wait_stream(copy_stream)
            if i + 1 < len(batches):
                nxt = self._send(batches[i + 1], copy_stream, device)
            x.record_stream(compute_stream)
            results.append(compute(x))
        return results


answer = _Pipeline()
