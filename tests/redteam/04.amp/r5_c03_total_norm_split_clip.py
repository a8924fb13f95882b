# expect: pass
# hint: 
import torch
import torch.nn.functional as F

class answer:
    """A callable class; clipping in two steps: get_total_norm then clip_grads_with_norm_."""

    def __new__(cls, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        self = object.__new__(cls)
        return self._run(net, batches, opt, device_type, dtype, scaler, max_norm)

    @staticmethod
    def _clip(net, max_norm):
        params = [p for p in net.parameters() if p.grad is not None]
        total = torch.nn.utils.get_total_norm([p.grad for p in params])
        torch.nn.utils.clip_grads_with_norm_(params, max_norm, total)

    def _run(self, net, batches, opt, device_type, dtype, scaler, max_norm):
        out = []
        for X, y in batches:
            with torch.autocast(device_type, dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            if scaler:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
            else:
                loss.backward()
            self._clip(net, max_norm)
            if scaler:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            out.append(loss.detach())
        return torch.stack(out)
