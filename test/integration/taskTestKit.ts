// What the Tasks suites of both wires share in VS Code: a descriptor of each wire (what differs between the 2025-11-25
// experimental tasks and the 2026-07-28 tasks extension, SEP-2663), and its fixture server configured in the
// workspace for a suite, with the host's dialogs answered as the test says and the rows of the server's Tasks group.
// Both fixtures name their tools alike (slow-report, cancelled-tasks, …), so a scenario calls the same tools on every
// wire; the descriptor holds only what differs.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolConsentQuestion } from '../../src/core/features/tools/toolConsent';
import type { ConsentAnswer } from '../../src/core/features/userQuestions';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import type { FormFieldPresetQuestion } from '../../src/vscode/dialogs/dialogRouter';
import { activateHost, answerDialogs, fixtureServer, serversTreeChild, serverTreeRow, submitCallForm, waitFor, WorkspaceConfig, type TestedHost } from './testKit';

export interface TaskWire {
  /** How test titles name it. */
  title: string;
  /** The protocol version its fixture settles on. */
  protocolVersion: '2025-11-25' | '2026-07-28';
  /** Its fixture server, in test/fixtures/servers. */
  fixture: string;
  /** The server's name in the workspace configuration, its row and `@mcp call <name>.<tool>`. */
  name: string;
  /** Whether its tasks report progress (notifications/progress): a running task's row then shows a percentage. */
  reportsProgress: boolean;
}

export const experimentalTasks: TaskWire = {
  title: '2025-11-25 (experimental tasks)',
  protocolVersion: '2025-11-25',
  fixture: 'tasks-server.mjs',
  name: 'tasks',
  reportsProgress: true,
};

export const tasksExtension: TaskWire = {
  title: '2026-07-28 (the tasks extension, SEP-2663)',
  protocolVersion: '2026-07-28',
  fixture: 'tasks-extension-server.mjs',
  name: 'tasks-ext',
  reportsProgress: false,
};

/**
 * How a running task's row reads on `wire`: "running 50%: Step 4 of 8", or "running: Step 4 of 8" on a wire whose tasks
 * report no progress. `percent` and `message` are regular-expression source.
 */
export const runningRow = (wire: TaskWire, percent: string, message: string): RegExp =>
  new RegExp(`^running${wire.reportsProgress ? ` ${percent}%` : ''}: ${message}$`);

type TreeNode = unknown;

/** `wire`'s fixture server as configured for a suite, and what the host asked while the suite ran. */
export class TaskServerInVsCode {
  api!: TestedHost;
  readonly toolQuestions: ToolConsentQuestion[] = [];
  /** The answers the next tool consent questions get, first first. */
  readonly toolAnswers: (ConsentAnswer | undefined)[] = [];
  readonly formFields: FormFieldPresetQuestion[] = [];
  /** What the call form's fields are filled with, by field name. */
  presets: Record<string, string> = {};

  constructor(readonly wire: TaskWire) {}

  server(): ServerInfo | undefined {
    return this.api.getServers().find((s) => s.name === this.wire.name);
  }

  serverRow(): Promise<TreeNode> {
    return serverTreeRow(this.api, this.wire.name);
  }

  child(parent: TreeNode | undefined, label: RegExp, description?: RegExp) {
    return serversTreeChild(this.api, parent, label, description);
  }

  /** A row of the server's Tasks group, waited for until one matches. */
  taskRow(label: RegExp, description: RegExp) {
    return waitFor(async () => {
      try {
        return await this.child((await this.child(await this.serverRow(), /^Tasks \(\d+\)$/)).node, label, description);
      } catch {
        return undefined;
      }
    }, `a task row ${label} ${description}:\n${this.api.testing.renderServersTree().join('\n')}`);
  }

  /**
   * How many tasks the server's Tasks group shows (0 without the group). The window keeps a server's tasks while it
   * is configured again under the same name, so a suite may find those of an earlier one.
   */
  async taskCount(): Promise<number> {
    try {
      const { item } = await this.child(await this.serverRow(), /^Tasks \(\d+\)$/);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return Number(/\d+/.exec(label)![0]);
    } catch {
      return 0;
    }
  }

  /** Submits the open call form, checking it asked for `fields` (filled from `presets`). */
  submitForm(fields: string[]): Promise<void> {
    return submitCallForm(() => this.formFields.map((f) => f.field.name), fields);
  }

  /** The ids of the tasks the server heard a tasks/cancel for (both fixtures have the tool). */
  async cancelledOnServer(): Promise<string[]> {
    const result = (await this.api.testing.callTool(this.server()!.id, 'cancelled-tasks')) as { content: { text: string }[] };
    return JSON.parse(result.content[0].text) as string[];
  }
}

/**
 * `wire`'s fixture configured in the workspace and running for the suite it is called in, its dialogs answered from
 * the returned value's answers and presets; the configuration is restored after the suite.
 */
export function useTaskServer(wire: TaskWire): TaskServerInVsCode {
  const under = new TaskServerInVsCode(wire);
  let config: WorkspaceConfig;
  let dialogs: vscode.Disposable | undefined;

  before(async () => {
    const api = (under.api = await activateHost());
    config = await WorkspaceConfig.read();
    dialogs = answerDialogs(api, {
      confirmToolCall: async (q) => {
        under.toolQuestions.push(q);
        return under.toolAnswers.shift();
      },
      formFieldPreset: (q) => {
        under.formFields.push(q);
        return under.presets[q.field.name];
      },
    });
    // The fixture's suggested poll interval: a task's rows change while a test looks.
    await config.writeServers({ ...config.servers(), [wire.name]: { command: 'node', args: [fixtureServer(wire.fixture)], env: { FIXTURE_TASK_POLL_MS: '150' } } });
    await api.testing.reloadConfiguration();
    const s = await waitFor(() => under.server(), `${wire.name} configured`);
    if (s.state.kind !== 'running') await api.testing.startServer(s.id);
    await waitFor(() => under.server()?.state.kind === 'running', `${wire.name} running`);
    assert.strictEqual(under.server()!.protocolVersion, wire.protocolVersion);
  });

  after(async () => {
    dialogs?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config.restore();
    await under.api.testing.reloadConfiguration();
  });

  return under;
}
