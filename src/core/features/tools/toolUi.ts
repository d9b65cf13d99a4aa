// What a tool's `_meta.ui` says (MCP Apps, the `io.modelcontextprotocol/ui` extension, SEP-1865): a tool may name a
// `ui://` resource (an HTML view of its results) and say who may call it: the model, the view, or both. Read here with
// no SDK values, so the chat and tool listings that filter on it stay off the SDK's load path.
import type { Tool } from '../../host/serverInfo';

/** The flat key of the first drafts, still sent by some servers. */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

export interface ToolUi {
  /** The `ui://` resource that shows the tool's results; undefined when the tool has none (or names no `ui://` URI). */
  resourceUri?: string;
  /** The model may see and call the tool (`visibility` includes "model", or is not given). */
  modelVisible: boolean;
  /** The tool's own view may call it (`visibility` includes "app", or is not given). */
  appCallable: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tool's `_meta.ui`, read defensively: whatever a server sends, the answer is well-formed. */
export function toolUi(tool: Pick<Tool, '_meta'>): ToolUi {
  const meta = isRecord(tool._meta) ? tool._meta : {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : typeof meta[LEGACY_RESOURCE_URI_KEY] === 'string' ? meta[LEGACY_RESOURCE_URI_KEY] : undefined;
  // The spec's default is ["model", "app"]; a list that is not a list of strings counts as not given.
  const visibility = Array.isArray(ui.visibility) && ui.visibility.every((v) => typeof v === 'string') ? (ui.visibility as string[]) : undefined;
  return {
    resourceUri: uri !== undefined && /^ui:\/\/./i.test(uri) ? uri : undefined,
    modelVisible: visibility ? visibility.includes('model') : true,
    appCallable: visibility ? visibility.includes('app') : true,
  };
}

/** Tools meant only for their view are never offered to a language model. */
export const isModelVisible = (tool: Pick<Tool, '_meta'>): boolean => toolUi(tool).modelVisible;

/** The tool's results have a view this host can show. */
export const hasView = (tool: Pick<Tool, '_meta'>): boolean => toolUi(tool).resourceUri !== undefined;
