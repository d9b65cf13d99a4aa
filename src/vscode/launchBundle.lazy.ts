// The entry of dist/launch.js: what a server's start needs before the host bundle (dist/host.js) loads, its launch
// plan and its process, started from the plan the user trusted. The first server's process then boots while the host
// bundle loads, where it would start after them. The composition root (./createHost.ts) requires it; the host
// bundle takes the modules re-exported here from dist/launch.js (esbuild.js makes its imports of them requires of it),
// so that each is one module at run time. Every module of the launch bundle is re-exported here, whole.
export * from '../core/protocol/launch/launchPlanner.lazy';
export * from '../core/protocol/launch/launchPlanError.lazy';
export * from '../core/protocol/launch/commandPath.lazy';
export * from '../core/protocol/launch/localRunnerCopies.lazy';
export * from '../core/protocol/launch/sandboxPolicy.lazy';
export * from '../core/protocol/launch/sandboxProtection.lazy';
export * from '../core/protocol/launch/pathInside.lazy';
export * from '../core/protocol/launch/programInstalls.lazy';
export * from '../core/protocol/launch/gitConfigPaths.lazy';
export * from '../core/protocol/launch/debugPlan.lazy';
export * from '../core/protocol/launch/serverProcess.lazy';
export * from '../core/config/socketAddress.lazy';
export * from '../core/config/envFile.lazy';
export * from '../core/protocol/launch/filesRunByOthers.lazy';
export * from './devMode/debuggablePlan.lazy';
export * from '../core/host/sharedStateFile.lazy';
