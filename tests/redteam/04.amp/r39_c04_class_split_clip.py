# expect: pass callable class with helper methods; contextlib-free; torch.nn.utils.get_total_norm + clip_grads_with_norm_ (clip_grad_norm_'s two halves); generator of losses into torch.stack(list(...))
# hint: 
import torch
import torch.nn.functional as F
from torch.nn.utils import get_total_norm, clip_grads_with_norm_
class AmpTrainer:
    def _clip(self, net, max_norm):
        params = [p for p in net.parameters() if p.grad is not None]
        grads = [p.grad for p in params]
        total = get_total_norm(grads, 2.0)
        clip_grads_with_norm_(params, max_norm, total)
    def _steps(self, net, batches, opt, device_type, dtype, scaler, max_norm):
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            (scaler.scale(loss) if scaler is not None else loss).backward()
            if scaler is not None:
                scaler.unscale_(opt)
            self._clip(net, max_norm)
            if scaler is not None:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            yield loss.detach()
    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return torch.stack(list(self._steps(net, batches, opt, device_type, dtype, scaler, max_norm)))
answer = AmpTrainer()
