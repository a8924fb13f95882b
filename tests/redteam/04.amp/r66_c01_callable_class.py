# expect: pass
# hint:
# Right: a callable class instance; forward and loss under torch.amp.autocast only,
# scale/backward/unscale_/clip(max_norm)/step/update for fp16, plain backward/clip/step for bf16.
import torch
import torch.nn.functional as F


class _AmpTrainer:
    """train_fp32's loop under autocast, as a callable object."""

    def _forward(self, net, X, y, device_type, dtype):
        with torch.amp.autocast(device_type, dtype=dtype):
            return F.cross_entropy(net(X), y)

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            loss = self._forward(net, X, y, device_type, dtype)
            opt.zero_grad()
            if scaler is None:  # bfloat16: fp32's range, nothing to scale
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                opt.step()
            else:  # float16: scale, unscale before clipping, step (may skip), update
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                scaler.step(opt)
                scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)


answer = _AmpTrainer()
