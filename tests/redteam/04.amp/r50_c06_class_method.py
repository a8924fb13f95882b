# expect: pass a small stateless class; answer is a bound method, the backward strategies are methods picked per call
# hint:
import torch
import torch.nn.functional as F


class AmpLoop:
    """Holds no training state: everything lives in the arguments of one call."""

    @staticmethod
    def _plain(loss, net, opt, scaler, max_norm):
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()

    @staticmethod
    def _scaled(loss, net, opt, scaler, max_norm):
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()

    def train(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
        update = self._plain if scaler is None else self._scaled
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            update(loss, net, opt, scaler, max_norm)
            losses.append(loss.detach())
        return torch.stack(losses)


answer = AmpLoop().train
