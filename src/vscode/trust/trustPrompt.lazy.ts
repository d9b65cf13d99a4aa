// Asks, through the dialog layer, whether to run workspace servers: shows exactly what would run. Several new servers
// of one folder are asked about in one question (Run All Confined / Trust and Run All / Choose Which to Run… / Run
// None); choosing is a quick pick with a checkbox per server. A stdio server not set to run confined is offered Run
// Confined first, with what its sandbox would allow, where this machine can confine; the choice is written into its
// mcp.json entry (`"sandboxEnabled": true`).
import * as fs from 'fs';
import * as path from 'path';
import vscode = require('vscode');
import { describeDefinition } from '../../core/presentation/describeDefinition';
import { describeRunsWhere, describeSandbox, summarizeLaunchPlan } from '../../core/presentation/describeLaunchPlan';
import type { ConfinedOffer } from '../../core/presentation/trustQuestionText';
import { sandboxSupport } from '../../core/protocol/launch/sandboxRuntime.lazy';
import { withSandboxEnabled } from '../../core/protocol/launch/sandboxRuleEdit.lazy';
import type { ServerDefinition } from '../../core/config/serverDefinition';
import type { TrustFacts } from '../../core/config/trustFacts';
import type { TrustAnswer, TrustPrompt } from '../../core/host/hostPorts';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { HostDialogs, TrustQuestion } from '../dialogs/dialogRouter';

type Definition = Pick<ServerDefinition, 'name' | 'scope' | 'raw'>;

/** The file the question names: a folder's .vscode/mcp.json by the folder's name, any other file by its path. */
const sourceOf = ({ scope }: Pick<Definition, 'scope'>): string =>
  scope.kind === 'workspace' && scope.configPath.endsWith(`${path.sep}.vscode${path.sep}mcp.json`) ? `${scope.label}${path.sep}.vscode${path.sep}mcp.json` : scope.configPath;

/** Run Confined, when the host planned a confined start: what it allows, or why this machine cannot confine. */
function confinedOffer(facts: TrustFacts): ConfinedOffer | undefined {
  if (!facts.confined?.sandbox) return undefined;
  const support = sandboxSupport();
  return support.ok ? { allows: describeSandbox(facts.confined.sandbox) } : { unavailable: support.reason };
}

const questionOf = (d: Definition, facts: TrustFacts): TrustQuestion => {
  const confined = confinedOffer(facts);
  const helper = facts.plan?.kind === 'remote' ? facts.plan.headersHelper : undefined;
  return {
    serverName: d.name,
    source: sourceOf(d),
    detail: describeDefinition(d.raw, facts),
    ...(facts.plan ? { what: describeRunsWhere(facts.plan) } : {}),
    ...(confined ? { confined } : {}),
    ...(helper ? { runsUnconfined: helper.command.join(' ') } : {}),
  };
};

/** Writes `"sandboxEnabled": true` into the server's entry of its mcp.json (comments and formatting kept). */
async function persistConfined({ name, scope }: Pick<Definition, 'name' | 'scope'>): Promise<void> {
  const text = await fs.promises.readFile(scope.configPath, 'utf8');
  const next = withSandboxEnabled(text, name, scope.configSection);
  if (next !== text) await fs.promises.writeFile(scope.configPath, next);
}

const canConfine = (q: TrustQuestion): boolean => !!q.confined && 'allows' in q.confined;

/** The pick's item that runs the checked servers confined. */
const CONFINE = -1;

/**
 * The servers to trust, picked one by one; undefined when the pick was dismissed. When some could run confined, a last
 * item (unchecked) runs the checked ones that can confined.
 */
async function chooseServers(questions: { definition: Definition; facts: TrustFacts }[], asked: TrustQuestion[]): Promise<TrustAnswer[] | undefined> {
  const definitions = questions.map((q) => q.definition);
  const items = questions.map(({ definition: d, facts }, index) => ({ label: labelText(d.name), detail: labelText(facts.plan ? summarizeLaunchPlan(facts.plan) : describeDefinition(d.raw, facts)), index }));
  const confinable = asked.filter(canConfine).length;
  if (confinable) items.push({ label: '$(lock) Run the checked servers confined', detail: `Those that can be (${confinable} of ${asked.length}): in a sandbox, with "sandboxEnabled": true written into mcp.json.`, index: CONFINE });
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    ignoreFocusOut: true,
    title: plainText(`Trust and run which MCP servers of ${definitions[0].scope.label}?`),
    // The rest ("the others stay off until you start them") is the title's question: a longer placeholder is cut.
    placeHolder: 'Check the servers to trust and run',
  });
  if (!picked) return undefined;
  const chosen = new Set(picked.map((p) => p.index));
  return definitions.map((_d, i) => chosen.has(i) && (chosen.has(CONFINE) && canConfine(asked[i]) ? 'confined' : true));
}

export function trustPromptFrom(dialogs: HostDialogs): Required<TrustPrompt> {
  return {
    askTrust: (definition, facts) => dialogs.confirmTrust(questionOf(definition, facts)),
    async askTrustMany(questions) {
      const definitions = questions.map((q) => q.definition);
      const servers = questions.map((q) => questionOf(q.definition, q.facts));
      const answer = await dialogs.confirmTrustMany({ folder: definitions[0].scope.label, source: sourceOf(definitions[0]), servers });
      // Run All Confined: each server that was offered Run Confined runs confined, the others as defined.
      if (answer === 'confined') return servers.map((s) => (canConfine(s) ? 'confined' : true));
      if (answer === 'all' || answer === 'none') return definitions.map(() => answer === 'all');
      if (answer === 'choose') return (await chooseServers(questions, servers)) ?? definitions.map(() => undefined);
      return definitions.map(() => undefined);
    },
    persistConfined,
    askRunCommand: ({ serverName, scope, command, args }) =>
      dialogs.confirmCommandValue({ serverName, source: sourceOf({ scope }), command, ...(args !== undefined ? { args: JSON.stringify(args).slice(0, 2000) } : {}) }),
  };
}
