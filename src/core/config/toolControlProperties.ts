// A server's `tools` (Copilot CLI's allow-list, `"*"`: all), `disabledTools` (a deny-list), `toolApproval` (how its
// calls are approved), `alwaysOffered` (never moved behind tool search by the context budget) and its `startup`. (Activation code: kept small. The JSON schema flags a `toolApproval` that is none of its values,
// which then counts as not given: every call asks.)
import { stringArrayProperty, type Diagnostics, type Member } from './configMembers';
import type { ToolApproval, ToolControlConfig } from './serverDefinition';

export const TOOL_CONTROL_KEYS = ['tools', 'disabledTools', 'toolApproval', 'alwaysOffered', 'alwaysLoad', 'startup'] as const;
const APPROVALS = ['askEveryCall', 'askUnlessReadOnly', 'neverAsk'];

export function toolControlProperties(m: Map<string, Member>, d: Diagnostics): ToolControlConfig {
  const controls: ToolControlConfig = {};
  for (const key of ['tools', 'disabledTools'] as const) {
    const names = stringArrayProperty(m, key, `"${key}"`, d);
    if (names) controls[key] = names;
  }
  const approval = m.get('toolApproval')?.value.value;
  if (APPROVALS.includes(approval)) controls.toolApproval = approval as ToolApproval;
  // `alwaysLoad`: Claude Code's name for it.
  if (m.get('alwaysOffered')?.value.value === true || m.get('alwaysLoad')?.value.value === true) controls.alwaysOffered = true;
  // When it starts (eager: with the window; onDemand: at its first use): read here, as it also goes with every server.
  const startup = m.get('startup')?.value.value;
  if (startup === 'eager' || startup === 'onDemand') controls.startup = startup;
  return controls;
}
