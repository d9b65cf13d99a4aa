// A tool result checked against the tool's output schema, as the SDK's `callTool` checks it (same validator, same
// words): for results that reach the host outside that call (the tasks extension's raw path). Compiled once per schema.
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';

const validator = new CfWorkerJsonSchemaValidator();
const compiled = new WeakMap<object, ReturnType<typeof validator.getValidator>>();

/** Throws a ProtocolError when `result` does not give what `tool`'s output schema says; an error result is not checked. */
export function checkToolOutput(tool: Pick<Tool, 'name' | 'outputSchema'> | undefined, result: CallToolResult): void {
  const schema = tool?.outputSchema;
  if (!schema || result.isError) return;
  if (result.structuredContent === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Tool ${tool.name} has an output schema but did not return structured content`);
  let check = compiled.get(schema);
  try {
    if (!check) compiled.set(schema, (check = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])));
  } catch (e) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to validate structured content: ${(e as Error).message}`);
  }
  const checked = check(result.structuredContent);
  if (!checked.valid) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${checked.errorMessage}`);
}
