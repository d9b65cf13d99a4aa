// The editor's language models (Copilot's, or any extension's provider) for chat and sampling: the core's messages
// to LanguageModelChatMessages, and the streamed answer back.
import vscode = require('vscode');
import type {
  LanguageModel,
  LanguageModelCatalog,
  LanguageModelInfo,
  ModelContentPart,
  ModelMessage,
  ModelPart,
  ModelRequest,
  ModelResponsePart,
} from '../../core/features/languageModel';

/** `LanguageModelDataPart` (images to and from models) exists from VS Code 1.104 on; this extension is typed against 1.95. */
type DataPartClass = new (data: Uint8Array, mimeType: string) => { data: Uint8Array; mimeType: string };
const DataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

/** What newer VS Code releases report for a model; the 1.95 typings do not have it. */
interface ChatCapabilities {
  supportsImageToText?: boolean;
  supportsToolCalling?: boolean;
}

function infoOf(model: vscode.LanguageModelChat): LanguageModelInfo {
  const capabilities = (model as unknown as { capabilities?: ChatCapabilities }).capabilities ?? {};
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    capabilities: { acceptsImages: !!DataPart && capabilities.supportsImageToText === true, acceptsTools: capabilities.supportsToolCalling !== false },
  };
}

/** Why an image cannot go to the model in this message; undefined when it can. */
function imageRefusal(role: ModelMessage['role'], model: LanguageModelInfo): string | undefined {
  if (!DataPart) return 'this VS Code cannot send images to models';
  if (role === 'assistant') return 'models take images only from the user';
  if (!model.capabilities.acceptsImages) return 'this model does not take images';
  return undefined;
}

function contentPart(part: ModelContentPart, imageRefused: string | undefined): unknown {
  if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.text);
  if (DataPart && !imageRefused) return new DataPart(part.data, part.mimeType);
  return new vscode.LanguageModelTextPart(`[An image (${part.mimeType}) was left out: ${imageRefused}.]`);
}

/** Tool result content for VS Code (a language model tool's result): text, and images where this VS Code takes them. */
export function toolResultParts(parts: readonly ModelContentPart[]): vscode.LanguageModelTextPart[] {
  // The 1.95 typings know text parts only; data parts go through at run time.
  return parts.map((p) => contentPart(p, DataPart ? undefined : 'this VS Code cannot pass images on')) as vscode.LanguageModelTextPart[];
}

function chatPart(part: ModelPart, imageRefused: string | undefined): unknown {
  switch (part.kind) {
    case 'toolCall':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'toolResult':
      return new vscode.LanguageModelToolResultPart(part.callId, part.content.map((c) => contentPart(c, imageRefused)));
    default:
      return contentPart(part, imageRefused);
  }
}

function chatMessages(request: ModelRequest, model: LanguageModelInfo): vscode.LanguageModelChatMessage[] {
  // The stable API has no system role: the system prompt goes first, as a user message.
  const system = request.systemPrompt ? [vscode.LanguageModelChatMessage.User(request.systemPrompt)] : [];
  return system.concat(
    request.messages.map((m) => {
      const imageRefused = imageRefusal(m.role, model);
      return new vscode.LanguageModelChatMessage(
        m.role === 'assistant' ? vscode.LanguageModelChatMessageRole.Assistant : vscode.LanguageModelChatMessageRole.User,
        // The typed union predates data parts; the runtime accepts them.
        m.parts.map((p) => chatPart(p, imageRefused)) as vscode.LanguageModelChatMessage['content'],
      );
    }),
  );
}

/** A CancellationToken that follows an AbortSignal (the core speaks AbortSignal, VS Code speaks tokens). */
function tokenFor(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

class EditorLanguageModel implements LanguageModel {
  readonly info: LanguageModelInfo;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    /** Shown when VS Code asks the user to let this extension use the model. */
    private readonly justification: string,
  ) {
    this.info = infoOf(model);
  }

  async *send(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelResponsePart> {
    const cancellation = tokenFor(signal);
    try {
      const tools = request.tools?.length && this.info.capabilities.acceptsTools ? request.tools : undefined;
      const response = await this.model.sendRequest(
        chatMessages(request, this.info),
        {
          justification: this.justification,
          ...(tools ? { tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) } : {}),
          ...(tools && request.toolMode === 'required' ? { toolMode: vscode.LanguageModelChatToolMode.Required } : {}),
        },
        cancellation.token,
      );
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart) yield { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
        else if (DataPart && part instanceof DataPart && part.mimeType.startsWith('image/')) yield { kind: 'image', mimeType: part.mimeType, data: part.data };
      }
    } finally {
      cancellation.dispose();
    }
  }

  async countTokens(text: string): Promise<number> {
    return this.model.countTokens(text);
  }
}

export class LanguageModels implements LanguageModelCatalog {
  constructor(private readonly justification: string) {}

  async list(): Promise<LanguageModelInfo[]> {
    return (await vscode.lm.selectChatModels()).map(infoOf);
  }

  async get(model: LanguageModelInfo): Promise<LanguageModel> {
    const [found] = await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.id });
    if (!found) throw new Error(`the model ${model.name} is no longer available`);
    return this.of(found);
  }

  /** A model the editor already handed over, such as the one the user chose for a chat request. */
  of(model: vscode.LanguageModelChat): LanguageModel {
    return new EditorLanguageModel(model, this.justification);
  }
}
