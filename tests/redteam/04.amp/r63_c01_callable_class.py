# expect: pass
# hint:
# Right: a callable class instance; the two precisions are two methods, the forward pass
# and the loss alone under autocast, unscale_ before clipping, losses stacked on the device.
import torch
import torch.nn.functional as F


class AmpTrainer:
    """train_fp32 under autocast; float16 with the caller's GradScaler, bfloat16 without one."""

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            if scaler is None:
                self._plain_step(net, opt, loss, max_norm)
            else:
                self._scaled_step(net, opt, scaler, loss, max_norm)
            losses.append(loss.detach())
        return torch.stack(losses)

    @staticmethod
    def _scaled_step(net, opt, scaler, loss, max_norm):
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()

    @staticmethod
    def _plain_step(net, opt, loss, max_norm):
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()


answer = AmpTrainer()
