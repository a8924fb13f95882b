# expect: pass classes with __call__, @torch.no_grad() decorator, *= in place, map_location=torch.device
# hint: 
import torch


class HalveFirstLayer:
    factor = 0.5

    @torch.no_grad()
    def __call__(self, net):
        w = net[0].weight
        w *= self.factor  # in place on the Parameter itself


class SaveParameters:
    def __call__(self, net, path):
        state = net.state_dict()
        torch.save(state, path)
        print(f"saved {len(state)} tensors to {path}")


class LoadParameters:
    def __call__(self, make_net, path, device):
        device = torch.device(device)
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net()
        missing, unexpected = net.load_state_dict(state)
        assert not missing and not unexpected
        return net.to(device)


answer = (HalveFirstLayer(), SaveParameters(), LoadParameters())
