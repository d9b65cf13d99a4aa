// The check a plain `tools/call` result gets from the SDK (`Client.callTool` with the tool's `outputSchema`), for the
// results that do not come through `callTool`: a task's (`tasks/result`), or a task call the server answered at once.
// The same validator as the session's Client (the SDK's @cfworker one) and the same errors, word for word, so a
// mismatch reads the same whichever way the call ran.
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type JsonSchemaType } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import type { Tool } from '../../host/serverInfo';

type Validator = ReturnType<CfWorkerJsonSchemaValidator['getValidator']>;

const validators = new CfWorkerJsonSchemaValidator();
/** Compiled once per tool definition (a new tools/list brings new objects). */
const compiled = new WeakMap<object, { validator: Validator } | { error: string }>();

function compile(tool: Tool & { outputSchema: object }) {
  let entry = compiled.get(tool.outputSchema);
  if (!entry) {
    try {
      entry = { validator: validators.getValidator(tool.outputSchema as JsonSchemaType) };
    } catch (e) {
      entry = { error: (e instanceof Error ? e.message : String(e)).slice(0, 200) };
    }
    compiled.set(tool.outputSchema, entry);
  }
  return entry;
}

/** Throws the SDK's ProtocolError when `result` breaks `tool`'s output schema; a tool without one passes anything. */
export function checkToolOutput(tool: Tool, result: CallToolResult): void {
  if (!tool.outputSchema) return;
  const entry = compile(tool as Tool & { outputSchema: object });
  if ('error' in entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool '${tool.name}' has an invalid outputSchema: ${entry.error}`);
  if (result.isError) return;
  if (result.structuredContent === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Tool ${tool.name} has an output schema but did not return structured content`);
  let outcome: ReturnType<Validator>;
  try {
    outcome = entry.validator(result.structuredContent);
  } catch (e) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to validate structured content: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!outcome.valid) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${outcome.errorMessage}`);
}
