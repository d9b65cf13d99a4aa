// The demo's Agent mode: VS Code sends a question typed without "@name" in Agent mode to the default agent, which is
// Copilot's (it asks you to sign in) unless an extension brings another. This one answers with the model picked in
// the chat (the demo model) and offers it the servers' tools as agent tools: the language model tools MCP Host
// registers (List MCP Tools, Call MCP Tool), run through VS Code, which asks before each call as for any agent.
// A default agent needs the proposed API `defaultChatParticipant`: `npm run demo` starts code-server with
// --enable-proposed-api for this extension.
const vscode = require('vscode');

/** Rounds of tool calls one question may take. */
const MAX_ROUNDS = 8;

/** The agent tools that reach the MCP servers: MCP Host's. */
const mcpTools = () => vscode.lm.tools.filter((t) => t.name.startsWith('mcpHost_'));

const errorText = (e) => (e instanceof Error ? e.message : String(e));

async function answer(request, _context, stream, token) {
  const tools = mcpTools();
  const messages = [vscode.LanguageModelChatMessage.User(request.prompt)];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const response = await request.model.sendRequest(messages, { tools }, token);
    const said = [];
    const calls = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        stream.markdown(part.value);
        said.push(part);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    if (!calls.length) return {};
    messages.push(vscode.LanguageModelChatMessage.Assistant([...said, ...calls]));
    const results = [];
    for (const call of calls) {
      try {
        const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
        results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
      } catch (e) {
        // A call the user declined, or that failed: the model is told, as any agent tells its model.
        results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`The tool failed: ${errorText(e)}`)]));
      }
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  stream.markdown(`\n\nStopped after ${MAX_ROUNDS} rounds of tool calls.`);
  return {};
}

/** Registers the agent (contributed in package.json as the default participant of Agent mode). */
function registerDemoAgent() {
  return vscode.chat.createChatParticipant('mcphost-demo.agent', answer);
}

module.exports = { registerDemoAgent };
