// A definition that must not run: its launch plan cannot be built. Shown as a configuration problem.
export class LaunchPlanError extends Error {}
