// The entry of dist/gateway.js: the gateway (its HTTP endpoint, made with the SDK's server package, its status bar item
// and Connect an Agent…), loaded only when the gateway is first turned on or used. It is a bundle of its own so that
// the server package, which only the gateway runs, is not in dist/host.js, which every window with a server loads.
// The composition root (./createHost.ts) requires it; the parts it uses of the host (the servers, the guarded call
// path) are handed to it as interfaces.
export { gatewayController } from './gateway/gatewayController.lazy';
