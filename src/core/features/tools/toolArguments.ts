// A call's arguments checked against a tool's input schema, when the schema the call was made for (known from the
// server's last run) is not the one the server, now started, offers: arguments that no longer fit are reported to the
// caller (the model reads it and can call again) and never sent. The SDK's lighter validator, as for output schemas.
// Loaded with the tool caller (the host bundle), never on activation.
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { hashOf } from '../../config/definitionHash';
import type { Tool } from '../../host/serverInfo';

const validators = new CfWorkerJsonSchemaValidator();

/** Why `args` do not fit `schema` (the validator's words, capped); undefined when they fit, or the schema cannot be compiled. */
function misfit(schema: Tool['inputSchema'], args: Record<string, unknown>): string | undefined {
  let outcome: { valid: boolean; errorMessage?: string };
  try {
    outcome = validators.getValidator(schema as JsonSchemaType)(args);
  } catch {
    // A schema the validator cannot read is the server's to enforce: the call goes as before.
    return undefined;
  }
  return outcome.valid ? undefined : (outcome.errorMessage ?? 'they do not match it').slice(0, 500);
}

/**
 * The message for a call whose tool's input schema changed since the schema it was made for (`known`) and whose
 * arguments no longer fit `now`; undefined when the schema is the same or they still fit.
 */
export function argumentsNoLongerFit(known: Tool, now: Tool, args: Record<string, unknown>, serverName: string): string | undefined {
  if (hashOf(known.inputSchema) === hashOf(now.inputSchema)) return undefined;
  const why = misfit(now.inputSchema, args);
  return why === undefined
    ? undefined
    : `The tool "${now.name}" of the MCP server "${serverName}" takes other arguments since the server's last run, and these no longer fit (${why}). The call was not sent: call it again with arguments for its new input schema.`;
}
