// The Tasks group of a running server in the "MCP Servers" view: the tool calls that run as tasks (from the tree, @mcp
// or an agent), newest first, each with its status and the server's status message; inline Cancel while it runs, a
// click (or Open Result) opens its result like any tool result, again after that view was closed. The window's one
// ToolTasks lives here, loaded on demand (the composition root hands it to the tool caller as a lazy part).
import { CommandIds } from '../../core/common/commandIds';
import { ToolTasks } from '../../core/features/tasks/toolTasks.lazy';
import { isTerminal, type ToolTask } from '../../core/features/tasks/toolTask';
import { checkToolOutput } from '../../core/features/tools/toolOutputCheck.lazy';
import type { ServerInfo } from '../../core/host/serverInfo';
import { toolLabel } from '../../core/presentation/serverPresentation';
import { firstLine, inlineCode, labelText, markdownLine, truncate } from '../../core/presentation/serverText';
import { waitedFor } from '../../core/features/tools/backgroundCalls';
import type { Codicon } from '../../core/presentation/serverPresentation';
import type { RunningServerRows, TreeRow } from '../servers/treeNode';
import { skillRows } from '../skills/skillRows.lazy';

let tasks: ToolTasks | undefined;
let watched = false;

/** The window's tool tasks. */
export function toolTasks(): ToolTasks {
  return (tasks ??= new ToolTasks({ checkResult: checkToolOutput }));
}

/** Rows a running server shows after its tools, prompts and resources: its skills, its tasks. `view` refreshes. */
export const serverRows: RunningServerRows = (info, view) => {
  if (!watched) {
    watched = true;
    toolTasks().onDidChange(() => view.refreshRows());
  }
  // Only its tools are known from its last run (dormant): the rest is listed by the server, which expanding the row starts.
  if (info.knownToolsOnly) return [notKnownRow(info, view)];
  return [...skillRows(info), ...taskRows(toolTasks(), info)];
};

/** Identifies this window's rows of what is not known: an expansion VS Code restores from an earlier window starts nothing. */
const WINDOW = String(Date.now());

/**
 * A dormant server's prompts and resources when its last run kept only its tools (what it offered was too large):
 * expanding the row starts the server, whose lists then replace it. Its key is new at each dormancy, so that a row
 * left expanded does not start the server again when it goes dormant.
 */
function notKnownRow(info: ServerInfo, view: Parameters<RunningServerRows>[1]): TreeRow {
  return {
    key: `notKnown-${WINDOW}-${info.knownFrom ?? 0}`,
    label: 'Prompts and resources',
    description: 'not known: expand to start the server',
    tooltip: 'Only its tools were kept from its last run (what it offered was too large). Expanding this row starts the server to list the rest.',
    icon: { id: 'question' },
    contextValue: 'mcpServerNotKnown',
    children: [{ key: 'starting', label: 'Starting the server to list them…', icon: { id: 'info' }, contextValue: 'mcpServerNotKnownStarting' }],
    onExpand: () => view.startFor(info.id, "the Servers view's list of its prompts and resources"),
  };
}

const ICONS: Record<ToolTask['status'], Codicon> = {
  working: { id: 'sync~spin' },
  input_required: { id: 'question', color: 'problemsWarningIcon.foreground' },
  completed: { id: 'pass', color: 'testing.iconPassed' },
  failed: { id: 'error', color: 'problemsErrorIcon.foreground' },
  cancelled: { id: 'circle-slash' },
};

const STATUS_WORDS: Record<ToolTask['status'], string> = {
  working: 'running',
  input_required: 'waiting for input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A task row's description is cut to this: a narrow view shows about this much beside a tool's name. */
export const TASK_ROW_MAX = 40;

/** What a task's row says after its name: its status, and the start of the server's message or why it ended (all of it in the tooltip). */
export function taskDescription(task: ToolTask): string {
  const { progress } = task;
  const share = !isTerminal(task.status) && progress?.total ? ` ${Math.min(100, Math.max(0, Math.round((progress.progress / progress.total) * 100)))}%` : '';
  const words = STATUS_WORDS[task.status] + share;
  const detail = isTerminal(task.status) ? (task.status === 'completed' ? undefined : task.failure) : task.statusMessage;
  return labelText(detail ? truncate(`${words}: ${firstLine(detail)}`, TASK_ROW_MAX) : words);
}

/** The Tasks group, when the server has tasks this window started. */
export function taskRows(tasks: ToolTasks, info: ServerInfo): TreeRow[] {
  const list = tasks.of(info.id);
  if (!list.length) return [];
  const running = list.filter((t) => !isTerminal(t.status)).length;
  return [
    {
      key: 'tasks',
      label: `Tasks (${list.length})`,
      description: running ? `${running} running` : undefined,
      contextValue: 'mcpGroup.tasks',
      children: list.map((task) => taskRow(task)),
    },
  ];
}

function taskRow(task: ToolTask): TreeRow {
  const ended = isTerminal(task.status);
  const tooltip = [
    task.movedAfterMs === undefined
      ? `**${markdownLine(toolLabel(task.tool))}** as a task (${inlineCode(task.taskId)})`
      : `**${markdownLine(toolLabel(task.tool))}**, gone on in the background after ${waitedFor(task.movedAfterMs)}: its caller stopped waiting for it`,
    `Status: ${markdownLine(STATUS_WORDS[task.status])}`,
    task.statusMessage && !ended ? `Server says: ${markdownLine(task.statusMessage)}` : undefined,
    task.failure ? markdownLine(task.failure) : undefined,
    `Started ${new Date(task.startedAt).toLocaleTimeString()}, called from ${markdownLine(task.origin)}`,
  ].filter(Boolean);
  return {
    key: `task:${task.key}`,
    label: labelText(toolLabel(task.tool)),
    description: taskDescription(task),
    tooltip: tooltip.join('\n\n'),
    icon: ICONS[task.status],
    contextValue: ended ? 'mcpTask.ended' : 'mcpTask.running',
    command: ended ? { title: 'Open Task Result', command: CommandIds.openTaskResult, arguments: [task.key] } : undefined,
  };
}

/** The task key a task command was given: the row's node (inline menus) or the key (a click, tests). */
export function taskKeyOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const key = (arg as { row?: { key?: unknown } } | undefined)?.row?.key;
  return typeof key === 'string' && key.startsWith('task:') ? key.slice('task:'.length) : undefined;
}
