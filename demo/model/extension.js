// MCP Host's demo language model: a script, not an AI. It lets you try chat, tool calling and sampling without an
// account: `npm run demo` installs it next to MCP Host, and the integration tests load it too. It is never part of
// MCP Host's .vsix. It also brings the demo's agent for Agent mode (agent.js).
//
// It answers a few phrasings, always the same way:
//   "what is 2 + 3?"            calls a tool whose name has "sum" or "add" with the two numbers;
//   "call <tool> {json}"        calls that tool (`<server>.<tool>` or the name the model sees) with the JSON object;
//   "which tools?"              lists the tools it was offered;
//   "find a tool to <need> {json}"  searches the tools for <need> and calls the first it finds with the JSON object;
// and, when a tool answered, says what it answered. When it is offered only MCP Host's agent tools
// (mcpHost_listTools / mcpHost_callTool, as in agent mode), it lists the MCP tools first, then calls the right one
// through them. When @mcp has more tools than a request carries, it is offered a search tool instead: it searches
// for what it was asked and calls what the search found. Anything else gets a reply that says it is scripted.
const vscode = require('vscode');
const { registerDemoAgent } = require('./agent');

const VENDOR = 'mcphost-demo';
const MODEL_ID = 'demo-model';
const LIST = 'mcpHost_listTools';
const CALL = 'mcpHost_callTool';
/** What @mcp offers instead of its tools when they are more than a request carries. */
const SEARCH = 'search_mcp_tools';
const FIND = 'find a tool to ';

let requests = 0;
/** The messages of the last request, as role and text (for the integration tests). */
let lastMessages = [];
let nextCall = 1;
let available = true;
const changed = new vscode.EventEmitter();

const textOf = (parts) => parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

/** The text of a tool result's content. */
const resultText = (part) => part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : typeof c?.value === 'string' ? c.value : '')).join('');

const isUser = (m) => m.role === vscode.LanguageModelChatMessageRole.User;

/**
 * The user's own words in a request: the last text part of the latest user message that has text, without what
 * others put in front of it. MCP Host's @mcp puts attached files, selections and resources first and the user's
 * question last; VS Code's agents wrap the question in <userRequest>; a chat that kept the participant's name starts
 * with "@name". Files and earlier turns are never read for a rule: "call the tool it lists" in an open file is not a
 * request.
 */
function ownWords(messages) {
  const lastAsked = [...messages].reverse().find((m) => isUser(m) && m.content.some((p) => p instanceof vscode.LanguageModelTextPart && p.value.trim()));
  if (!lastAsked) return '';
  const texts = lastAsked.content.filter((p) => p instanceof vscode.LanguageModelTextPart && p.value.trim()).map((p) => p.value);
  let text = texts[texts.length - 1];
  const wrapped = /<userRequest>([\s\S]*?)<\/userRequest>/i.exec(texts.join('\n'));
  if (wrapped) text = wrapped[1];
  return text.trim().replace(/^@[\w-]+\s*/, '').trim();
}

/** What the user asked for: a tool (by a hint in its name) and its arguments. "call|run|use" only as the first word. */
function intent(text) {
  const at = text.toLowerCase().indexOf(FIND);
  if (at >= 0) {
    const rest = text.slice(at + FIND.length);
    const brace = rest.indexOf('{');
    let args = {};
    if (brace >= 0) {
      try {
        args = JSON.parse(rest.slice(brace));
      } catch {
        return { error: `"${rest.slice(brace)}" is not valid JSON.` };
      }
    }
    return { query: (brace >= 0 ? rest.slice(0, brace) : rest).trim(), search: true, args };
  }
  const call = /^(?:please\s+)?(?:call|run|use)\s+([\w.-]+)\s*(\{[\s\S]*\})?/i.exec(text);
  if (call) {
    let args = {};
    if (call[2]) {
      try {
        args = JSON.parse(call[2]);
      } catch {
        return { error: `"${call[2]}" is not valid JSON.` };
      }
    }
    const [server, tool] = call[1].includes('.') ? call[1].split(/\.(.*)/s, 2) : [undefined, call[1]];
    return { server, tool, exact: true, args };
  }
  const sum = /(-?\d+(?:\.\d+)?)\s*(?:\+|plus|and)\s*(-?\d+(?:\.\d+)?)/i.exec(text);
  if (sum) return { tool: 'sum', alternatives: ['add'], numbers: [Number(sum[1]), Number(sum[2])] };
  return undefined;
}

/** The arguments for a tool's schema: the given object, or the numbers in order for its number properties. */
function argumentsFor(schema, wish) {
  if (wish.args) return wish.args;
  const props = Object.entries(schema?.properties ?? {}).filter(([, s]) => s && (s.type === 'number' || s.type === 'integer'));
  return Object.fromEntries(props.slice(0, wish.numbers.length).map(([name], i) => [name, wish.numbers[i]]));
}

const matches = (name, wish) => {
  const hints = [wish.tool, ...(wish.alternatives ?? [])].map((h) => h.toLowerCase());
  const n = name.toLowerCase();
  return wish.exact ? n === hints[0] || n.endsWith(`_${hints[0]}`) : hints.some((h) => n.includes(h));
};

function reply(messages, tools) {
  const last = messages[messages.length - 1];
  const results = last ? last.content.filter((p) => p instanceof vscode.LanguageModelToolResultPart) : [];
  const asked = ownWords(messages);
  const offered = tools ?? [];
  const wish = intent(asked);
  const callTool = (name, input) => [new vscode.LanguageModelToolCallPart(`demo-call-${nextCall++}`, name, input)];

  if (results.length) {
    // The last round brought tool results. After MCP Host's list, call the tool it lists; otherwise say what came back.
    const calls = messages.flatMap((m) => m.content.filter((p) => p instanceof vscode.LanguageModelToolCallPart));
    const lastCall = calls.find((c) => c.callId === results[0].callId);
    if (lastCall?.name === SEARCH && wish && !wish.error) {
      let found;
      try {
        const { tools: listed } = JSON.parse(resultText(results[0]));
        found = wish.search ? listed[0] : listed.find((t) => matches(t.name, wish));
      } catch {
        return `The search found nothing: ${resultText(results[0])}`;
      }
      if (!found) return `The search found no tool for "${wish.query ?? wish.tool}".`;
      return callTool(found.name, argumentsFor(found.inputSchema, wish));
    }
    if (lastCall?.name === LIST && wish && !wish.error && offered.some((t) => t.name === CALL)) {
      let listed = [];
      try {
        listed = JSON.parse(resultText(results[0]));
      } catch {
        return `MCP Host lists no tools: ${resultText(results[0])}`;
      }
      if (!Array.isArray(listed)) return `MCP Host lists no tools: ${resultText(results[0])}`;
      const found = wish.search ? listed[0] : listed.find((t) => (!wish.server || t.server === wish.server) && (matches(t.tool, wish) || matches(t.name, wish)));
      if (!found) return `None of the MCP tools matches "${wish.tool}". They are: ${listed.map((t) => t.name).join(', ')}.`;
      return callTool(CALL, { server: found.server, tool: found.tool, arguments: argumentsFor(found.inputSchema, wish) });
    }
    return `The tool answered:\n\n${results.map((r) => resultText(r)).join('\n\n')}`;
  }

  if (wish?.error) return wish.error;
  if (/\b(which|what|list)\b.*\btools?\b/i.test(asked)) {
    return offered.length ? `I was offered ${offered.length} tools: ${offered.map((t) => `\`${t.name}\``).join(', ')}.` : 'I was offered no tools.';
  }
  if (wish?.search) {
    if (offered.some((t) => t.name === SEARCH)) return callTool(SEARCH, { query: wish.query });
    if (offered.some((t) => t.name === LIST)) return callTool(LIST, { query: wish.query });
    return `All ${offered.length} tools were offered to me: no search was needed for "${wish.query}".`;
  }
  if (wish) {
    const direct = offered.find((t) => (wish.server ? t.name === `${wish.server}_${wish.tool}` : matches(t.name, wish)));
    if (direct) return callTool(direct.name, argumentsFor(direct.inputSchema, wish));
    if (offered.some((t) => t.name === SEARCH)) return callTool(SEARCH, { query: [wish.server, wish.tool, ...(wish.alternatives ?? [])].filter(Boolean).join(' ') });
    if (offered.some((t) => t.name === LIST)) return callTool(LIST, wish.server ? { server: wish.server } : {});
    if (wish.numbers) return `No tool adds numbers here, so the script did it: ${wish.numbers[0] + wish.numbers[1]}.`;
    return `I was not offered a tool named "${wish.tool}".`;
  }
  if (!offered.length) {
    return `Scripted answer (this demo model is not an AI) to: "${asked.slice(0, 300)}"`;
  }
  return (
    'I am MCP Host\'s demo model: a script, not an AI. Try "what is 2 + 3?" (I call a sum tool), ' +
    '"call everything.echo {"message": "hi"}", or "which tools?". ' +
    `I was offered ${offered.length} tool${offered.length === 1 ? '' : 's'}.`
  );
}

const INFO = {
  id: MODEL_ID,
  name: 'Demo model — scripted, not an AI',
  family: 'mcphost-demo',
  version: '1',
  tooltip: 'MCP Host\'s demo model: it answers from a few fixed rules and calls tools when asked to.',
  maxInputTokens: 100000,
  maxOutputTokens: 4000,
  capabilities: { toolCalling: true },
  isUserSelectable: true,
};

function activate(context) {
  context.subscriptions.push(
    changed,
    registerDemoAgent(),
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      onDidChangeLanguageModelChatInformation: changed.event,
      provideLanguageModelChatInformation: async () => (available ? [INFO] : []),
      provideLanguageModelChatResponse: async (_model, messages, options, progress) => {
        requests++;
        lastMessages = messages.map((m) => ({ role: isUser(m) ? 'user' : 'assistant', text: textOf(m.content) }));
        const answer = reply(messages, options.tools);
        if (typeof answer !== 'string') {
          for (const part of answer) progress.report(part);
          return;
        }
        // Streamed in pieces, as a real model's answer is.
        for (const piece of answer.match(/[\s\S]{1,40}/g) ?? []) progress.report(new vscode.LanguageModelTextPart(piece));
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
    }),
  );
  // VS Code asks a provider for its models when something needs them, not when it registers: registered after the
  // workbench last asked (this extension starts only once the folder is trusted), the model would be missing from the
  // chat's model picker until something asked again. Saying the models changed makes VS Code ask now.
  changed.fire();
  // For the integration tests: how many requests reached the model, and a switch to see MCP Host without any model.
  return {
    vendor: VENDOR,
    id: MODEL_ID,
    get requests() {
      return requests;
    },
    get lastMessages() {
      return lastMessages;
    },
    setAvailable(value) {
      available = value;
      changed.fire();
    },
  };
}

module.exports = { activate, deactivate() {} };
