// The protocol side of running a prompt: argument suggestions (completion/complete) and expansion (prompts/get).
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { SessionPort } from '../../host/serverSession';
import { sessionForUse } from '../../host/sessionForUse';

export interface Suggestions {
  values: string[];
  /** The server has more than it sent (the user should type more to narrow them). */
  hasMore: boolean;
}

const none: Suggestions = { values: [], hasMore: false };

/**
 * Suggestions for one prompt argument from what the user typed so far. Arguments already chosen go along as
 * `context`, so a server can narrow later arguments by earlier ones. Servers without the `completions` capability,
 * and failures, give no suggestions: the user can always type a value.
 */
export async function completePromptArgument(
  sessions: SessionPort,
  serverId: string,
  promptName: string,
  argument: { name: string; value: string },
  context: Record<string, string>,
  signal?: AbortSignal,
): Promise<Suggestions> {
  const session = await sessionForUse(sessions, serverId, `the completion of a prompt argument of ${promptName}`, signal);
  if (!session.capabilities.completions) return none;
  try {
    const { completion } = await session.complete(
      {
        ref: { type: 'ref/prompt', name: promptName },
        argument,
        ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
      },
      { signal },
    );
    return { values: completion.values, hasMore: completion.hasMore ?? (completion.total ?? 0) > completion.values.length };
  } catch {
    return none;
  }
}

/** `prompts/get`: the prompt's messages with the arguments filled in. Cancelling `signal` cancels the request. */
export async function getPrompt(
  sessions: SessionPort,
  serverId: string,
  promptName: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  return (await sessionForUse(sessions, serverId, `the prompt ${promptName}`, signal)).getPrompt(promptName, args, { signal });
}
