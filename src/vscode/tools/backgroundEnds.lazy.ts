// A tool call that went on in the background (see src/core/features/tools/backgroundCalls.ts) ends where nobody waits
// for it: a notification says how, with Open Result. (Its row shows its end too; one the user cancelled says nothing
// more.) Kept out of ./taskRows.lazy.ts, which plain-Node tests load without VS Code.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { ToolTasks } from '../../core/features/tasks/toolTasks.lazy';
import { isTerminal, type ToolTask } from '../../core/features/tasks/toolTask';
import { plainText, truncate } from '../../core/presentation/serverText';
import { toolTasks as windowTasks } from './taskRows.lazy';

let watched = false;

/** The window's tool tasks, whose calls gone on in the background say how they ended. */
export function toolTasks(): ToolTasks {
  const tasks = windowTasks();
  if (!watched) {
    watched = true;
    tasks.onDidChange(toldWhenEnded());
  }
  return tasks;
}

function toldWhenEnded(): (task: ToolTask) => void {
  const told = new Set<string>();
  return (task) => {
    if (task.movedAfterMs === undefined || !isTerminal(task.status) || task.status === 'cancelled' || told.has(task.key)) return;
    told.add(task.key);
    const name = plainText(`"${task.tool.name}" (${task.serverName})`);
    const failed = task.status === 'failed' || !!task.result?.isError;
    const how = task.status === 'failed' ? `failed: ${plainText(truncate(task.failure ?? 'no reason given', 200))}` : failed ? 'finished with an error' : 'finished';
    const message = `The MCP tool call ${name}, gone on in the background, ${how}.`;
    const shown = failed ? vscode.window.showWarningMessage(message, 'Open Result') : vscode.window.showInformationMessage(message, 'Open Result');
    void Promise.resolve(shown).then((pick) => pick && vscode.commands.executeCommand(CommandIds.openTaskResult, task.key));
  };
}
