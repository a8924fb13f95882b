# expect: pass three small classes with __call__, the halving under a @torch.no_grad() decorator
# hint:
import torch


class HalveFirstLayer:
    factor = 0.5

    @torch.no_grad()
    def __call__(self, net):
        net[0].weight.mul_(self.factor)


class SaveParameters:
    def __call__(self, net, path):
        torch.save(net.state_dict(), path)


class LoadParameters:
    def __call__(self, make_net, path, device):
        device = torch.device(device)
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net().to(device)
        net.load_state_dict(state)  # strict by default: a missing key raises
        return net


halve_first_layer = HalveFirstLayer()
save_parameters = SaveParameters()
load_parameters = LoadParameters()

answer = (halve_first_layer, save_parameters, load_parameters)
