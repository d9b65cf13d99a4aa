// Skills for models (the io.modelcontextprotocol/skills extension): each running server with skills offers one more
// tool, `load_skill`, made by the host, which lists that server's skills in its description and loads one on demand —
// its SKILL.md instructions, or one of its files — verified by the SDK. It goes wherever the server's tools go (@mcp's
// model, agents through mcpHost_listTools/mcpHost_callTool) under the same consent as they do: the user's "always
// allow" for it, the read-only setting, or a question per call. No skill file is read before a model asks for it.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ConsentContext, GuardedCallOutcome, ToolCall, ToolCaller } from '../tools/toolCaller';
import type { SessionPort } from '../../host/serverSession';
import { sessionForUse } from '../../host/sessionForUse';
import { offersFeatures, type ServerInfo, type Skill, type Tool } from '../../host/serverInfo';
import { skillFilePath, skillFiles } from './skillPresentation';

export const SKILL_TOOL_NAME = 'load_skill';
/** Marks the host's own tool, so that a server's tool of the same name is never taken for it. */
const SKILL_TOOL_META = 'io.github.mcp-host/skills';
const MAX_LISTED = 100;
const MAX_DESCRIPTION = 300;

export const isSkillTool = (tool: Tool): boolean => tool.name === SKILL_TOOL_NAME && tool._meta?.[SKILL_TOOL_META] === true;

/** The host's `load_skill` tool for one server's skills. */
export function skillTool(skills: readonly Skill[]): Tool {
  const listed = skills
    .slice(0, MAX_LISTED)
    .map((s) => `- ${s.frontmatter.name}: ${s.frontmatter.description.slice(0, MAX_DESCRIPTION).replace(/\s+/g, ' ')}`)
    .join('\n');
  return {
    name: SKILL_TOOL_NAME,
    title: 'Load skill',
    description:
      `Loads a skill of this MCP server: its instructions (SKILL.md), or one of its files when \`file\` is given. ` +
      `Load a skill when the task matches its description, then follow its instructions. Skills:\n${listed}`,
    inputSchema: {
      type: 'object',
      properties: {
        skill: { type: 'string', description: 'The skill name, as listed.', enum: skills.slice(0, MAX_LISTED).map((s) => s.frontmatter.name) },
        file: { type: 'string', description: 'A file of the skill, by its path under the skill (e.g. references/FORMS.md), as SKILL.md names it. Leave out for SKILL.md.' },
      },
      required: ['skill'],
    },
    annotations: { title: 'Load skill', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    _meta: { [SKILL_TOOL_META]: true },
  };
}

/** The servers as models see them: each running server with skills gets its `load_skill` tool after its own. */
export function withSkillTools(servers: readonly ServerInfo[]): ServerInfo[] {
  return servers.map((s) => {
    const skills = s.features.skills;
    if (!offersFeatures(s.state) || !skills?.length || s.features.tools.some((t) => t.name === SKILL_TOOL_NAME)) return s;
    return { ...s, features: { ...s.features, tools: [...s.features.tools, skillTool(skills)] } };
  });
}

const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });

/** Loads what the model asked for; a failure (unknown skill, verification) is an error result the model can read. */
export async function loadSkillForModel(port: SessionPort, serverId: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  const info = port.servers().find((s) => s.id === serverId);
  const skills = info?.features.skills ?? [];
  const skill = skills.find((s) => s.frontmatter.name === args.skill);
  if (!info || !skill) return text(`No skill "${String(args.skill)}" on this server. Skills: ${skills.map((s) => s.frontmatter.name).join(', ') || 'none'}.`, true);
  const file = typeof args.file === 'string' && args.file.trim() && args.file.trim() !== 'SKILL.md' ? args.file.trim() : undefined;
  try {
    const read = await (await sessionForUse(port, serverId, `a read of the skill ${skill.frontmatter.name}`, signal)).readSkillFile(skill, file, { signal });
    if (file) return text(read.text ?? new TextDecoder().decode(read.bytes));
    const others = skillFiles(skill)
      .filter((uri) => uri !== skill.uri)
      .map((uri) => skillFilePath(skill, uri));
    return text(
      [
        `Skill "${skill.frontmatter.name}" of MCP server "${info.name}" (its instructions, as the server wrote them):`,
        '',
        read.body ?? read.text ?? '',
        ...(others.length ? ['', `Files of this skill (load one with \`file\`): ${others.join(', ')}`] : []),
      ].join('\n'),
    );
  } catch (e) {
    if (signal?.aborted) throw e;
    return text(`The skill "${skill.frontmatter.name}" was not loaded: ${(e as Error).message}`, true);
  }
}

/**
 * A caller that answers the host's `load_skill` itself and passes every other call on: consent for it is asked on the
 * same guarded path as for the server's tools (keyed by the server and the tool's name), then the skill is loaded.
 */
export function skillAwareCaller(caller: Pick<ToolCaller, 'call' | 'authorize'>, port: SessionPort): Pick<ToolCaller, 'call'> {
  return {
    async call(call: ToolCall, context: ConsentContext = {}): Promise<GuardedCallOutcome> {
      if (!isSkillTool(call.tool)) return caller.call(call, context);
      const authorized = await caller.authorize(call, context);
      if (!authorized.allowed) return { ran: false, consent: authorized.consent };
      context.onAllowed?.(authorized.reason);
      return { ran: true, result: await loadSkillForModel(port, call.serverId, call.arguments, call.signal) };
    },
  };
}
